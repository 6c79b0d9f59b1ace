/** Applies a push answer: drop settled mutations, write canonical rows, rebase the rest. */
import type { LinkboardDb } from '../data/db.ts';
import type { MutationContext } from '../data/mutation-context.ts';
import { Touched } from '../data/targets.ts';
import { InvalidRowError } from '../data/synced-tables.ts';
import { SyncTransportError, type PushAnswer, type PushResult } from '../backend/sync-transport.ts';
import { checkWireRows, deleteRows, putRows, syncScope } from './apply-rows.ts';
import { rebase } from './rebase.ts';

export interface PushOutcome {
  settled: number;
  rejected: PushResult[];
}

/** Fallback wording when the server gives none (spec 8 uses 'Failed to ... Please try again.'). */
export const GENERIC_REJECTION = 'Your change could not be saved. Please try again.';

/**
 * Checks the answer's rows before anything is written; an invalid one is a 'server'
 * SyncTransportError naming the table and field.
 */
export function checkAnswerRows(answer: PushAnswer): void {
  try {
    for (const result of answer.results) checkWireRows(result.rows);
  } catch (error) {
    if (!(error instanceof InvalidRowError)) throw error;
    console.error(error.message);
    throw new SyncTransportError('server', error.message);
  }
}

export async function applyPushAnswer(
  db: LinkboardDb,
  sentIds: readonly string[],
  answer: PushAnswer,
  ctx: MutationContext,
): Promise<PushOutcome> {
  const sent = new Set(sentIds);
  const results = answer.results;
  checkAnswerRows(answer);
  return db.transaction('rw', syncScope(db), async () => {
    const rejected: PushResult[] = [];
    let settled = 0;
    const touched = new Touched();
    for (const result of results) {
      if (!sent.has(result.id)) continue;
      const deleted = await db.outbox.where('id').equals(result.id).delete();
      if (deleted === 0) continue;
      settled += 1;
      await putRows(db, result.rows, touched);
      await deleteRows(db, result.deleted, touched);
      if (result.status === 'rejected') rejected.push(result);
    }
    // Canonical rows may have overwritten fields that later queued mutations change: re-apply
    // those mutations (only those, or a long queue would be re-applied once per batch).
    await rebase(db, ctx, touched);
    return { settled, rejected };
  });
}
