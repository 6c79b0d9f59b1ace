/**
 *  (docs/product.md, Server calls; docs/product.md, Decisions): the server queues the 'Event Created' mail
 * of a non-task event and one 'Recurring Event Created' mail per series in public.outgoing_mail,
 * in the savepoint that applies event.create / series.create / series.replace: to the owner's
 * confirmed address only, never for a task, a replay or a refused mutation, at most 100 an hour
 * per user (beyond which the event is still saved, without its mail).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import type { StackContext } from '../../supabase/local/context.ts';
import { mailboxApp, type MailboxMessage } from '../../supabase/local/mailbox.ts';
import { setSiteUrl } from '../../supabase/local/migrate.ts';
import { anonymous, as, createUser, dbKinds, freshDb, sqlError, type Actor } from '../support/db.ts';
import { count, mutation, push, uuid } from '../sync-server/sync.ts';

type User = Required<Pick<Actor, 'id' | 'email'>>;
interface Mail {
  to_address: string;
  subject: string;
  body: string;
  sender_id: string | null;
}

/** A series.create's args: n weekly occurrences from `first` (an ISO instant). */
function series(n: number, first: string, until: string, extra: Record<string, unknown> = {}) {
  const start = Date.parse(first);
  return {
    series_id: uuid(),
    rule: 'weekly',
    until,
    occurrences: Array.from({ length: n }, (_, i) => ({
      id: uuid(),
      title: 'Standup',
      description: null,
      starts_at: new Date(start + i * 7 * 86_400_000).toISOString(),
      ends_at: new Date(start + i * 7 * 86_400_000 + 900_000).toISOString(),
    })),
    ...extra,
  };
}

const event = (title: string, startsAt = '2026-11-23T08:00:00Z', extra: Record<string, unknown> = {}) =>
  mutation('event.create', { id: uuid(), title, starts_at: startsAt, ends_at: null, is_task: false, ...extra });

describe.each(dbKinds)('event mail queued by the server (%s)', (kind) => {
  let db: Db;

  beforeAll(async () => {
    db = await freshDb(kind);
    await setSiteUrl(db, 'https://app.example/');
  });
  afterAll(() => db.close());

  const user = async (tier: 'free' | 'pro' = 'pro', zone = 'Europe/Berlin') => {
    const created = await createUser(db, { tier });
    await db.query('update public.user_profiles set time_zone = $2 where id = $1', [created.id, zone]);
    return created;
  };
  const mailsTo = async (who: User) =>
    (
      await db.query<Mail>(
        'select to_address, subject, body, sender_id from public.outgoing_mail where to_address = $1 order by created_at, subject',
        [who.email],
      )
    ).rows;
  const calendar = 'See it in your calendar: https://app.example/Calendar';

  it("queues one 'Event Created' mail for a non-task event, its start in the owner's zone", async () => {
    const owner = await user();
    const [result] = await push(db, owner, event('Dentist'));
    expect(result).toMatchObject({ status: 'applied' });
    expect(await mailsTo(owner)).toEqual([
      {
        to_address: owner.email,
        subject: 'Event Created',
        body: [
          'Your event "Dentist" has been created on Linkboard.',
          '',
          'Starts: Mon 23 Nov 2026, 09:00 (Europe/Berlin)',
          '',
          calendar,
        ].join('\n'),
        sender_id: owner.id,
      },
    ]);
  });

  it('writes the start in UTC for a profile on the default zone, and is_task absent means an event', async () => {
    const owner = await user('free', 'UTC');
    const created = mutation('event.create', { id: uuid(), title: 'Call', starts_at: '2026-12-01T07:05:00Z' });
    expect((await push(db, owner, created))[0]).toMatchObject({ status: 'applied' });
    const [mail] = await mailsTo(owner);
    expect(mail?.body).toContain('\nStarts: Tue 1 Dec 2026, 07:05 (UTC)\n');
  });

  it('queues nothing for a task, nor for updating, completing, detaching or deleting', async () => {
    const owner = await user();
    const task = uuid();
    const created = event('Meeting');
    const recurring = series(2, '2026-11-23T08:00:00Z', '2026-12-01T00:00:00Z');
    const results = await push(
      db,
      owner,
      mutation('event.create', { id: task, title: 'Pay rent', is_task: true, priority: 'high' }),
      created,
      mutation('series.create', series(2, '2026-11-23T08:00:00Z', '2026-12-01T00:00:00Z', { is_task: true })),
      mutation('series.create', recurring),
      mutation('task.set_completed', { id: task, value: true }),
      mutation('event.update', { id: created.args.id, title: 'Meeting (moved)' }),
      mutation('occurrence.detach', { id: recurring.occurrences[0]!.id, title: 'Alone' }),
      mutation('event.delete', { id: created.args.id }),
      mutation('series.delete', { series_id: recurring.series_id }),
    );
    expect(results.map((r) => r.status)).toEqual(Array.from({ length: 9 }, () => 'applied'));
    // The event and the (non-task) series: one mail each, the series of tasks none.
    expect((await mailsTo(owner)).map((m) => m.subject)).toEqual(['Event Created', 'Recurring Event Created']);
  });

  it("queues one 'Recurring Event Created' mail per series, with its rule, size and end date", async () => {
    const owner = await user();
    // The end is 23:30 UTC on the 7th: already the 8th in Berlin.
    const args = series(3, '2026-11-23T08:00:00Z', '2026-12-07T23:30:00Z');
    expect((await push(db, owner, mutation('series.create', args)))[0]).toMatchObject({ status: 'applied' });
    expect(await count(db, 'calendar_events', 'series_id = $1', [args.series_id])).toBe(3);
    expect(await mailsTo(owner)).toEqual([
      {
        to_address: owner.email,
        subject: 'Recurring Event Created',
        body: [
          'Your recurring event "Standup" has been created on Linkboard.',
          '',
          'First: Mon 23 Nov 2026, 09:00 (Europe/Berlin)',
          'Repeats: weekly, 3 occurrences, until Tue 8 Dec 2026',
          '',
          calendar,
        ].join('\n'),
        sender_id: owner.id,
      },
    ]);
  });

  it('queues one mail for the new series of a series.replace', async () => {
    const owner = await user();
    const first = series(2, '2026-11-23T08:00:00Z', '2026-12-01T00:00:00Z');
    const second = series(1, '2027-01-04T08:00:00Z', '2027-01-05T00:00:00Z', { rule: 'monthly' });
    second.occurrences[0]!.title = 'Review';
    await push(db, owner, mutation('series.create', first));
    const [replaced] = await push(db, owner, mutation('series.replace', { ...second, old_series_id: first.series_id }));
    expect(replaced).toMatchObject({ status: 'applied' });
    const mails = await mailsTo(owner);
    expect(mails.map((m) => m.subject)).toEqual(['Recurring Event Created', 'Recurring Event Created']);
    expect(mails.filter((m) => m.body.includes('"Review"')).map((m) => m.body.split('\n').slice(2, 4))).toEqual([
      ['First: Mon 4 Jan 2027, 09:00 (Europe/Berlin)', 'Repeats: monthly, 1 occurrence, until Tue 5 Jan 2027'],
    ]);
  });

  it('queues nothing for a replay of the same mutation, in the same push or a later one', async () => {
    const owner = await user();
    const created = event('Once');
    const recurring = mutation('series.create', series(2, '2026-11-23T08:00:00Z', '2026-12-01T00:00:00Z'));
    const first = await push(db, owner, created, created, recurring, recurring);
    expect(first.map((r) => r.status)).toEqual(['applied', 'applied', 'applied', 'applied']);
    const again = await push(db, owner, recurring, created);
    expect(again.map((r) => r.status)).toEqual(['applied', 'applied']);
    expect((await mailsTo(owner)).map((m) => m.subject)).toEqual(['Event Created', 'Recurring Event Created']);
  });

  it('queues nothing for a refused mutation: the Free 11th event, a Free series, a series over the cap', async () => {
    const free = await user('free');
    const ten = Array.from({ length: 10 }, (_, i) => event(`E${i}`));
    expect((await push(db, free, ...ten)).every((r) => r.status === 'applied')).toBe(true);
    const eleventh = event('Eleventh');
    const freeSeries = mutation('series.create', series(2, '2026-11-23T08:00:00Z', '2026-12-01T00:00:00Z'));
    const refused = await push(db, free, eleventh, freeSeries);
    expect(refused.map((r) => [r.status, r.code])).toEqual([
      ['rejected', 'limit_reached'],
      ['rejected', 'limit_reached'],
    ]);
    expect(await mailsTo(free)).toHaveLength(10);
    expect((await mailsTo(free)).some((m) => m.body.includes('Eleventh'))).toBe(false);

    const pro = await user();
    const tooBig = series(1001, '2026-11-23T08:00:00Z', '2046-12-01T00:00:00Z');
    const ok = series(1, '2026-11-23T08:00:00Z', '2026-12-01T00:00:00Z');
    const [big, replaceMissing] = await push(
      db,
      pro,
      mutation('series.create', tooBig),
      mutation('series.replace', { ...ok, old_series_id: uuid() }),
    );
    expect(big).toMatchObject({ status: 'rejected', code: 'invalid' });
    expect(replaceMissing).toMatchObject({ status: 'rejected', code: 'not_found' });
    expect(await mailsTo(pro)).toEqual([]);
  });

  it('queues nothing for an account whose address is not confirmed; the event is still saved', async () => {
    const owner = await user();
    await db.query('update auth.users set email_confirmed_at = null where id = $1', [owner.id]);
    const created = event('Unconfirmed');
    const results = await push(
      db,
      owner,
      created,
      mutation('series.create', series(2, '2026-11-23T08:00:00Z', '2026-12-01T00:00:00Z')),
    );
    expect(results.map((r) => r.status)).toEqual(['applied', 'applied']);
    expect(await count(db, 'calendar_events', 'owner_id = $1', [owner.id])).toBe(3);
    expect(await mailsTo(owner)).toEqual([]);
    const { rows } = await db.query(
      "select 1 from private.throttle_attempts where bucket = 'event_mail' and subject = $1",
      [owner.id],
    );
    expect(rows).toEqual([]);
  });

  it('counts one mail per event or series against 100 an hour; over it the event is saved without mail', async () => {
    const owner = await user();
    const attempts = async () => {
      const { rows } = await db.query<{ n: number }>(
        "select count(*)::int as n from private.throttle_attempts where bucket = 'event_mail' and subject = $1",
        [owner.id],
      );
      return rows[0]!.n;
    };
    await push(
      db,
      owner,
      event('Counted'),
      mutation('series.create', series(5, '2026-11-23T08:00:00Z', '2027-01-01T00:00:00Z')),
    );
    expect(await attempts()).toBe(2);
    // 98 more this hour (as if sent): the cap of 100 is reached.
    await db.query(
      "insert into private.throttle_attempts (bucket, subject) select 'event_mail', $1 from generate_series(1, 98)",
      [owner.id],
    );
    const over = event('Over the cap');
    const overSeries = mutation('series.create', series(2, '2026-11-23T08:00:00Z', '2026-12-01T00:00:00Z'));
    const results = await push(db, owner, over, overSeries);
    expect(results.map((r) => r.status)).toEqual(['applied', 'applied']);
    expect(await count(db, 'calendar_events', 'id = $1 and deleted_at is null', [over.args.id])).toBe(1);
    expect(await count(db, 'calendar_events', 'series_id = $1', [overSeries.args.series_id])).toBe(2);
    expect((await mailsTo(owner)).map((m) => m.subject)).toEqual(['Event Created', 'Recurring Event Created']);
    expect(await attempts()).toBe(100);
    // An hour later the mail goes out again.
    await db.query(
      "update private.throttle_attempts set attempted_at = attempted_at - interval '61 minutes' where bucket = 'event_mail' and subject = $1",
      [owner.id],
    );
    expect((await push(db, owner, event('Next hour')))[0]).toMatchObject({ status: 'applied' });
    expect((await mailsTo(owner)).filter((m) => m.body.includes('"Next hour"'))).toHaveLength(1);
  });

  it('links to the relative /Calendar path when no site URL is set', async () => {
    await db.query("delete from private.settings where key = 'site_url'");
    try {
      const owner = await user();
      await push(db, owner, event('Relative'));
      const [mail] = await mailsTo(owner);
      expect(mail?.body.endsWith('\nSee it in your calendar: /Calendar')).toBe(true);
    } finally {
      await setSiteUrl(db, 'https://app.example');
    }
  });

  it('shows the mail in the local mailbox, as it does the invitations', async () => {
    const owner = await user();
    await push(db, owner, event('In the mailbox'));
    // The mailbox reads only the database of the stack's context.
    const app = mailboxApp({ db } as unknown as StackContext, 'loopback');
    const response = await app.request(`/messages.json?to=${encodeURIComponent(owner.email)}`);
    expect(response.status).toBe(200);
    const messages = (await response.json()) as MailboxMessage[];
    expect(messages.map((m) => [m.to, m.subject])).toEqual([[owner.email, 'Event Created']]);
    expect(messages[0]!.body).toContain('"In the mailbox"');
  });

  it('keeps the mail helpers closed to every client role: only a mutation queues mail', async () => {
    const owner = await user();
    const stranger = await user();
    const created = event('Private');
    const recurring = mutation('series.create', series(2, '2026-11-23T08:00:00Z', '2026-12-01T00:00:00Z'));
    await push(db, owner, created, recurring);
    // Not even the owner may queue the mail of their own event again, outside the mutation.
    for (const actor of [anonymous, stranger, owner]) {
      for (const [fn, id] of [
        ['queue_event_mail', created.args.id],
        ['queue_series_mail', recurring.args.series_id],
      ] as const) {
        const denied = await sqlError(as(db, actor, (sql) => sql.query(`select private.${fn}($1)`, [id])));
        expect(denied.code, `${fn} as ${'id' in actor ? actor.id : 'anon'}`).toBe('42501');
      }
    }
    expect(await mailsTo(owner)).toHaveLength(2);
    expect(await mailsTo(stranger)).toEqual([]);
    for (const fn of ['calendar_mail_to(uuid)', 'calendar_mail_time(uuid, timestamptz, boolean)']) {
      const { rows } = await db.query<{ ok: boolean }>(
        `select has_function_privilege('authenticated', 'private.${fn}', 'execute') as ok`,
      );
      expect(rows[0]!.ok, fn).toBe(false);
    }
  });
});
