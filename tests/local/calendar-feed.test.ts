/**
 * The calendar feed: a private, revocable address per user whose token the
 * database keeps only hashed; the feed is RFC 5545 that a calendar app parses; a wrong, malformed
 * or revoked token is refused, and misses are throttled per client address.
 */
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, URL_BASE, type TestStack } from './stack.ts';
import { signUpConfirmed, type StackUser } from './stack-users.ts';

let stack: TestStack;
let user: StackUser;
beforeAll(async () => {
  stack = await startTestStack();
  user = await signUpConfirmed(stack.fetch, stack.db, { base: URL_BASE, prefix: 'feed', tier: 'pro' });
  await stack.db.query(`update public.user_profiles set time_zone = 'Europe/Berlin' where id = $1`, [user.id]);
  await stack.db.query(
    `insert into public.calendar_events (id, title, description, starts_at, ends_at, owner_id, is_task, priority,
                                         reminder_minutes, all_day)
     values (gen_random_uuid(), 'Standup; daily, with team', 'Room 4', '2026-03-02T08:00:00Z', '2026-03-02T08:15:00Z', $1, false, null, 15, false),
            (gen_random_uuid(), 'File taxes', null, '2026-04-30T10:00:00Z', null, $1, true, 'high', null, false),
            (gen_random_uuid(), 'Conference', null, '2026-05-06T22:00:00Z', '2026-05-08T22:00:00Z', $1, false, null, 1440, true)`,
    [user.id],
  );
});
afterAll(() => stack.close());

const feed = (token: string, address = '203.0.113.7') =>
  stack.fetch(`${URL_BASE}/functions/v1/calendar-feed?token=${encodeURIComponent(token)}`, {
    headers: { 'X-Forwarded-For': address },
  });

async function createFeed(who: StackUser = user): Promise<string> {
  const { data, error } = await who.client.rpc('create_calendar_feed');
  expect(error).toBeNull();
  return data as string;
}

describe('calendar feed', () => {
  it('serves the owner’s events and tasks as iCalendar a calendar app parses, without a session', async () => {
    const token = await createFeed();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const response = await feed(token);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('private, max-age=300');
    const body = await response.text();
    const calendar = new ICAL.Component(ICAL.parse(body));
    const [event, conference] = calendar.getAllSubcomponents('vevent');
    expect(event?.getFirstPropertyValue('summary')).toBe('Standup; daily, with team');
    expect(event?.getFirstPropertyValue('description')).toBe('Room 4');
    expect((event?.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString()).toBe(
      '2026-03-02T08:00:00.000Z',
    );
    // The reminder goes with it, as calendar apps show it.
    const alarm = event?.getFirstSubcomponent('valarm');
    expect(alarm?.getFirstPropertyValue('action')).toBe('DISPLAY');
    expect(String(alarm?.getFirstPropertyValue('trigger'))).toBe('-PT15M');
    // An all-day event is dates in the user's zone (Berlin): 7 and 8 May.
    expect(conference?.getFirstPropertyValue('summary')).toBe('Conference');
    expect(body).toContain('DTSTART;VALUE=DATE:20260507\r\nDTEND;VALUE=DATE:20260509\r\n');
    expect(String(conference?.getFirstSubcomponent('valarm')?.getFirstPropertyValue('trigger'))).toBe('-P1D');
    const [task] = calendar.getAllSubcomponents('vtodo');
    expect(task?.getFirstPropertyValue('summary')).toBe('File taxes');
    expect(task?.getFirstPropertyValue('priority')).toBe(1);
  });

  it('keeps only a hash of the token, and the status says since when the feed is on', async () => {
    const token = await createFeed();
    const { rows } = await stack.db.query<{ token_hash: Buffer }>(
      'select token_hash from private.calendar_feeds where user_id = $1',
      [user.id],
    );
    expect(rows).toHaveLength(1);
    expect(Buffer.from(rows[0]!.token_hash).toString('utf8')).not.toContain(token);
    expect(Buffer.from(rows[0]!.token_hash)).toHaveLength(32);
    const { data } = await user.client.rpc('calendar_feed_status');
    expect(data).toMatchObject({ active: true, created_at: expect.any(String) });
  });

  it('refuses a wrong or malformed token, an earlier token after a new one, and a revoked one', async () => {
    const first = await createFeed();
    const second = await createFeed();
    expect(second).not.toBe(first);
    expect((await feed(first, '203.0.113.20')).status).toBe(404);
    expect((await feed('x'.repeat(43), '203.0.113.20')).status).toBe(404);
    expect((await feed('not a token', '203.0.113.20')).status).toBe(404);
    expect((await feed(second, '203.0.113.20')).status).toBe(200);
    const { error } = await user.client.rpc('revoke_calendar_feed');
    expect(error).toBeNull();
    const refused = await feed(second, '203.0.113.20');
    expect(refused.status).toBe(404);
    expect(await refused.text()).toBe('This calendar feed does not exist or was turned off.');
    expect((await user.client.rpc('calendar_feed_status')).data).toMatchObject({ active: false });
  });

  it('throttles misses per client address with 429 and Retry-After; other addresses still get through', async () => {
    const token = await createFeed();
    for (let i = 0; i < 30; i += 1) expect((await feed('y'.repeat(43), '198.51.100.9')).status).toBe(404);
    const throttled = await feed('y'.repeat(43), '198.51.100.9');
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await feed(token, '198.51.100.10')).status).toBe(200);
  });

  it('is a Pro feature: a Free user cannot make one, and a feed stops while its owner is on Free', async () => {
    const free = await signUpConfirmed(stack.fetch, stack.db, { base: URL_BASE, prefix: 'feedfree' });
    const refused = await free.client.rpc('create_calendar_feed');
    expect(refused.error?.message).toBe('Calendar sync is a Pro feature.');
    const token = await createFeed();
    await stack.db.query(`update public.user_profiles set subscription_tier = 'free' where id = $1`, [user.id]);
    expect((await feed(token, '203.0.113.40')).status).toBe(404);
    await stack.db.query(`update public.user_profiles set subscription_tier = 'pro' where id = $1`, [user.id]);
    expect((await feed(token, '203.0.113.40')).status).toBe(200);
  });

  it('is not callable by users or visitors: only the function reads a feed, and only users make one', async () => {
    const token = await createFeed();
    const asUser = await user.client.rpc('calendar_feed', { p_token: token });
    expect(asUser.error).not.toBeNull();
    const visitor = stack.client();
    expect((await visitor.rpc('calendar_feed', { p_token: token })).error).not.toBeNull();
    expect((await visitor.rpc('create_calendar_feed')).error).not.toBeNull();
  });
});
