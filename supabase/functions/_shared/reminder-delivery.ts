/**
 * One round of the reminder sender: claims the due reminders (claim_due_reminders, which records
 * each claim, so a reminder is handed out once however many senders run), pushes each to its
 * device, and forgets a device whose push service says it is gone (forget_push_subscription). A
 * push that fails otherwise is counted and not retried: a reminder is late at once, and a second
 * claim could reach the device twice. The send-reminders function runs it.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { reminderPayload, type DueReminder } from './reminder-message.ts';
import type { SendPush } from './web-push-sender.ts';

export interface ReminderRoundOptions {
  /** A supabase-js client with the service-role key (the claim is the service role's only). */
  client: Pick<SupabaseClient, 'rpc'>;
  send: SendPush;
  /** The app's origin, for the notice's link. */
  siteUrl: string;
  now?: Date;
  /** Reminders claimed per batch (1 to 1,000); batches follow while one comes back full. */
  batchSize?: number;
  /** At most this many batches per round. */
  maxBatches?: number;
  /** Pushes in flight at once. */
  concurrency?: number;
}

export interface ReminderRoundResult {
  sent: number;
  failed: number;
  gone: number;
}

async function forEachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export async function sendDueReminders(options: ReminderRoundOptions): Promise<ReminderRoundResult> {
  const { client, send, siteUrl, batchSize = 200, maxBatches = 10, concurrency = 20 } = options;
  const now = options.now ?? new Date();
  const result: ReminderRoundResult = { sent: 0, failed: 0, gone: 0 };
  const goneEndpoints = new Set<string>();
  for (let batch = 0; batch < maxBatches; batch++) {
    const claimed = await client.rpc('claim_due_reminders', { p_now: now.toISOString(), p_limit: batchSize });
    if (claimed.error) throw new Error(`claim_due_reminders failed: ${claimed.error.message}`);
    const reminders = (claimed.data ?? []) as DueReminder[];
    await forEachLimited(reminders, concurrency, async (reminder) => {
      if (goneEndpoints.has(reminder.endpoint)) {
        result.gone++;
        return;
      }
      const outcome = await send(reminder, JSON.stringify(reminderPayload(reminder, siteUrl, now)));
      if (outcome.kind === 'sent') result.sent++;
      else if (outcome.kind === 'failed') {
        result.failed++;
        console.warn(`[send-reminders] a reminder of event ${reminder.event_id} did not go: ${outcome.reason}`);
      } else {
        result.gone++;
        goneEndpoints.add(reminder.endpoint);
        const forgot = await client.rpc('forget_push_subscription', { p_endpoint: reminder.endpoint });
        if (forgot.error) console.error('[send-reminders] forget_push_subscription failed:', forgot.error.message);
      }
    });
    if (reminders.length < batchSize) break;
  }
  return result;
}
