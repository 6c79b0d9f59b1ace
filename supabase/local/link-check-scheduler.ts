/**
 * The local stack's part of a hosted scheduler (pg_cron calling check-links every 10 minutes):
 * it calls the check-links function in-process a minute after start and then every 10 minutes,
 * or after 5 s while a round found a full batch (a backlog). close() of the stack stops it and
 * waits for the round in flight.
 */
import type { Hono } from 'hono';
import { startRounds, type Rounds } from './rounds.ts';

export interface LinkCheckTiming {
  firstMs: number;
  everyMs: number;
  /** After a round that claimed a full batch. */
  backlogMs: number;
}

export const LINK_CHECK_TIMING: LinkCheckTiming = { firstMs: 60_000, everyMs: 600_000, backlogMs: 5000 };

/** Links one round claims at most (the function's ROUND_SIZE). */
const ROUND_SIZE = 200;

export function startLinkCheckScheduler(
  app: Hono,
  origin: string,
  serviceRoleKey: string,
  timing: LinkCheckTiming = LINK_CHECK_TIMING,
): Rounds {
  return startRounds(timing.firstMs, async () => {
    try {
      const response = await app.fetch(
        new Request(`${origin}/functions/v1/check-links`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${serviceRoleKey}`, 'Content-Type': 'application/json' },
          body: '{}',
        }),
      );
      const body = (await response.json().catch(() => ({}))) as { checked?: number; error?: string };
      if (!response.ok) throw new Error(`check-links answered ${response.status}: ${body.error ?? 'no reason'}`);
      return (body.checked ?? 0) >= ROUND_SIZE ? timing.backlogMs : timing.everyMs;
    } catch (error) {
      console.error('[link checks] round failed:', error instanceof Error ? error.message : error);
      return timing.everyMs;
    }
  });
}
