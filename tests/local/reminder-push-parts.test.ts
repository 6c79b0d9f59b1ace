/**
 * The parts around a reminder push: what it says (reminder-message.ts), how the
 * service worker shows it (sync-worker/push-handler.ts), the local stack's VAPID keys (kept
 * across restarts, or from the environment) and their public half in the served page, the
 * scheduler's rounds, and send-reminders without keys claiming nothing.
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { reminderPayload, type DueReminder } from '../../supabase/functions/_shared/reminder-message.ts';
import { reminderNotice } from '../../sync-worker/push-handler.ts';
import { newVapidKeys, pushSettingsFrom } from '../../supabase/local/push-settings.ts';
import { startReminderScheduler } from '../../supabase/local/reminder-scheduler.ts';
import { staticApp } from '../../supabase/local/static.ts';
import type { FunctionHandler } from '../../supabase/functions/_shared/types.ts';

const reminder = (overrides: Partial<DueReminder> = {}): DueReminder => ({
  event_id: '0b9e7a4e-5f0c-4d5e-9a43-6a0d1c1e2f30',
  title: 'Dentist',
  starts_at: '2031-03-03T13:30:00+00:00',
  is_task: false,
  reminder_minutes: 15,
  time_zone: 'Europe/Berlin',
  username: null,
  subscription_id: 'a1e6c0de-1111-4222-8333-944455556666',
  endpoint: 'https://push.example.com/x',
  p256dh: 'B',
  auth: 'a',
  ...overrides,
});

describe('a reminder push', () => {
  it("says when in the owner's time zone, tags the occurrence and links the calendar", () => {
    const now = new Date('2031-03-03T13:15:00Z');
    expect(reminderPayload(reminder(), 'https://linkboard.example', now)).toEqual({
      title: 'Dentist',
      body: 'Starts today at 14:30',
      tag: '0b9e7a4e-5f0c-4d5e-9a43-6a0d1c1e2f30@2031-03-03T13:30:00.000Z',
      url: 'https://linkboard.example/Calendar',
    });
    expect(reminderPayload(reminder({ username: 'ada' }), 'https://l.example', now).url).toBe(
      'https://l.example/Calendar/ada',
    );
    const dayBefore = new Date('2031-03-02T13:30:00Z');
    expect(reminderPayload(reminder({ is_task: true }), 'https://l.example', dayBefore).body).toBe(
      'Due tomorrow at 14:30',
    );
    const late = reminderPayload(reminder({ reminder_minutes: 0 }), 'https://l.example', new Date(now.getTime() + 1e6));
    expect(late.body).toBe('Starts now');
    expect(reminderPayload(reminder({ time_zone: 'Nowhere/Else' }), 'https://l.example', now).body).toBe(
      'Starts today at 13:30',
    );
  });

  it('is shown by the service worker with its tag and link; junk gets a plain notice', () => {
    const payload = { title: 'Dentist', body: 'Starts today at 14:30', tag: 'e@t', url: 'https://l.example/Calendar' };
    expect(reminderNotice(JSON.stringify(payload))).toEqual({
      title: 'Dentist',
      options: expect.objectContaining({ body: payload.body, tag: 'e@t', data: { url: payload.url } }) as unknown,
    });
    const plain = reminderNotice('not json');
    expect(plain.title).toBe('Linkboard reminder');
    expect(plain.options).not.toHaveProperty('tag');
    expect(plain.options.data).toEqual({ url: '/Calendar' });
  });
});

describe('the local stack and reminder pushes', () => {
  it('keeps its VAPID keys in .data (0600), or takes both from the environment', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'vapid-')), 'vapid-keys.json');
    const made = pushSettingsFrom({}, file);
    expect(made.source).toBe(`${file} (new)`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(pushSettingsFrom({}, file)).toMatchObject({ publicKey: made.publicKey, privateKey: made.privateKey });
    const given = newVapidKeys();
    expect(
      pushSettingsFrom({ VAPID_PUBLIC_KEY: given.publicKey, VAPID_PRIVATE_KEY: given.privateKey }, file),
    ).toMatchObject(given);
    expect(() => pushSettingsFrom({ VAPID_PUBLIC_KEY: given.publicKey }, file)).toThrow(/both/);
    expect(pushSettingsFrom({}).source).toBe('random for this run');
    writeFileSync(file, '{}');
    expect(() => pushSettingsFrom({}, file)).toThrow(/VAPID key pair/);
  });

  it('writes the public key into the served index.html and names it in the worker revision', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'static-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><html><head><title>x</title></head></html>');
    writeFileSync(join(dir, 'sw.js'), 'precache([{"revision":"0baccf2f","url":"index.html"}])');
    const revision = async (vapidPublicKey?: string) =>
      (await staticApp(dir, { anonKey: 'anon', vapidPublicKey }).request('/sw.js')).text();
    const page = await (await staticApp(dir, { anonKey: 'anon', vapidPublicKey: 'BPk_ey' }).request('/')).text();
    expect(page).toContain('<meta name="linkboard-vapid-key" content="BPk_ey" />');
    expect(await revision('BPk_ey')).not.toBe(await revision('BOther'));
    expect(await revision(undefined)).toMatch(/"revision":"0baccf2f-[0-9a-f]{12}"/);
    expect(readFileSync(join(dir, 'index.html'), 'utf8')).not.toContain('vapid');
  });

  it('runs the scheduler in rounds until stopped, waiting for the round in flight', async () => {
    let rounds = 0;
    const scheduler = startReminderScheduler(
      async () => {
        rounds++;
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { sent: 0, failed: 0, gone: 0 };
      },
      { firstMs: 1, everyMs: 5 },
    );
    await vi.waitFor(() => expect(rounds).toBeGreaterThanOrEqual(3));
    await scheduler.stop();
    const stoppedAt = rounds;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(rounds).toBe(stoppedAt);
  });

  it('claims nothing without VAPID keys', async () => {
    const env = {
      SUPABASE_URL: 'http://127.0.0.1:1',
      SUPABASE_ANON_KEY: 'anon',
      SUPABASE_SERVICE_ROLE_KEY: 'service-role-key',
      SUPPORT_EMAIL: 'support@example.com',
      fetch: () => Promise.reject(new Error('no call expected')),
    };
    // A function's entry, loaded as the stack loads it (index.ts is its entry, not a barrel).
    const { default: handler } = (await import(`../../supabase/functions/${'send-reminders'}/index.ts`)) as {
      default: FunctionHandler;
    };
    const response = await handler(
      new Request('http://x/functions/v1/send-reminders', {
        method: 'POST',
        headers: { Authorization: 'Bearer service-role-key' },
      }),
      env,
    );
    expect(await response.json()).toEqual({ sent: 0, failed: 0, gone: 0, skipped: 'no VAPID keys' });
  });
});
