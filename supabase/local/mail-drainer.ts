/**
 * The local stack's part of a hosted scheduler (pg_cron calling deliver-mail every minute): with
 * an SMTP_URL, it calls the deliver-mail function in-process, soon after start and then every
 * second while there is mail, backing off by a second per idle round to every 5 s. close() of the
 * stack stops it and waits for the batch in flight.
 */
import type { Hono } from 'hono';
import type { DrainResult } from '../functions/_shared/mail-delivery.ts';
import { startRounds, type Rounds } from './rounds.ts';

export interface DrainerTiming {
  /** The first round, after start. */
  firstMs: number;
  /** Between rounds while there is mail, and the step by which an idle wait grows. */
  busyMs: number;
  /** The longest wait, idle or after an error. */
  idleMs: number;
}

export const DRAINER_TIMING: DrainerTiming = { firstMs: 200, busyMs: 1000, idleMs: 5000 };

export type MailDrainer = Rounds;

/** One round: POST /functions/v1/deliver-mail with the service-role key, through the stack itself. */
export function deliverMailInProcess(app: Hono, origin: string, serviceRoleKey: string): () => Promise<DrainResult> {
  return async () => {
    const response = await app.fetch(
      new Request(`${origin}/functions/v1/deliver-mail`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${serviceRoleKey}`, 'Content-Type': 'application/json' },
        body: '{}',
      }),
    );
    const body = (await response.json().catch(() => ({}))) as Partial<DrainResult> & { error?: string };
    if (!response.ok) throw new Error(`deliver-mail answered ${response.status}: ${body.error ?? 'no reason given'}`);
    return { sent: body.sent ?? 0, retried: body.retried ?? 0, failed: body.failed ?? 0 };
  };
}

export function startMailDrainer(
  drain: () => Promise<DrainResult>,
  timing: DrainerTiming = DRAINER_TIMING,
): MailDrainer {
  let idleWait = timing.busyMs;
  return startRounds(timing.firstMs, async () => {
    let wait = timing.idleMs;
    try {
      const result = await drain();
      const handled = result.sent + result.retried + result.failed;
      if (result.retried + result.failed > 0) {
        console.warn(
          `[mail] delivery: ${result.sent} sent, ${result.retried} to retry, ${result.failed} failed (public.outgoing_mail.last_error says why)`,
        );
      }
      idleWait = handled > 0 ? timing.busyMs : Math.min(idleWait + timing.busyMs, timing.idleMs);
      wait = handled > 0 ? timing.busyMs : idleWait;
    } catch (error) {
      console.error('[mail] delivery round failed:', error instanceof Error ? error.message : error);
    }
    return wait;
  });
}
