/**
 * The local stack's part of a hosted scheduler (pg_cron calling send-reminders every minute):
 * it calls the send-reminders function in-process soon after start and then every 30 s, so a
 * reminder is pushed within 30 s of its time (the claim drops one missed by more than 10
 * minutes). close() of the stack stops it and waits for the round in flight.
 */
import type { Hono } from 'hono';
import type { ReminderRoundResult } from '../functions/_shared/reminder-delivery.ts';
import { startRounds, type Rounds } from './rounds.ts';

export interface ReminderSchedulerTiming {
  /** The first round, after start. */
  firstMs: number;
  /** Between rounds. */
  everyMs: number;
}

export const REMINDER_SCHEDULER_TIMING: ReminderSchedulerTiming = { firstMs: 1000, everyMs: 30_000 };

export type ReminderScheduler = Rounds;

/** One round: POST /functions/v1/send-reminders with the service-role key, through the stack itself. */
export function sendRemindersInProcess(
  app: Hono,
  origin: string,
  serviceRoleKey: string,
): () => Promise<ReminderRoundResult> {
  return async () => {
    const response = await app.fetch(
      new Request(`${origin}/functions/v1/send-reminders`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${serviceRoleKey}`, 'Content-Type': 'application/json' },
        body: '{}',
      }),
    );
    const body = (await response.json().catch(() => ({}))) as Partial<ReminderRoundResult> & { error?: string };
    if (!response.ok) throw new Error(`send-reminders answered ${response.status}: ${body.error ?? 'no reason given'}`);
    return { sent: body.sent ?? 0, failed: body.failed ?? 0, gone: body.gone ?? 0 };
  };
}

export function startReminderScheduler(
  round: () => Promise<ReminderRoundResult>,
  timing: ReminderSchedulerTiming = REMINDER_SCHEDULER_TIMING,
): ReminderScheduler {
  return startRounds(timing.firstMs, async () => {
    try {
      const result = await round();
      if (result.failed > 0) console.warn(`[reminders] ${result.sent} pushed, ${result.failed} failed`);
    } catch (error) {
      console.error('[reminders] round failed:', error instanceof Error ? error.message : error);
    }
    return timing.everyMs;
  });
}
