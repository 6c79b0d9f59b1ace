/** Applies a push answer: drop settled mutations, write canonical rows, rebase the rest. */
import type { LinkboardDb } from '../data/db.ts';
import type { MutationContext } from '../data/mutation-context.ts';
import type { PushAnswer, PushResult } from '../backend/sync-transport.ts';
import { deleteRows, putRows, syncScope } from './apply-rows.ts';
import { nothingTouched, noteTouched, rebase } from './rebase.ts';

export interface PushOutcome {
  settled: number;
  rejected: PushResult[];
}

/** Fallback wording when the server gives none (spec 8 uses 'Failed to ... Please try again.'). */
export const GENERIC_REJECTION = 'Your change could not be saved. Please try again.';

export async function applyPushAnswer(
  db: LinkboardDb,
  sentIds: readonly string[],
  answer: PushAnswer,
  ctx: MutationContext,
): Promise<PushOutcome> {
  const sent = new Set(sentIds);
  const results = Array.isArray(answer?.results) ? answer.results : [];
  return db.transaction('rw', syncScope(db), async () => {
    const rejected: PushResult[] = [];
    let settled = 0;
    const touched = nothingTouched();
    for (const result of results) {
      if (!sent.has(result.id)) continue;
      const deleted = await db.outbox.where('id').equals(result.id).delete();
      if (deleted === 0) continue;
      settled += 1;
      await putRows(db, result.rows);
      await deleteRows(db, result.deleted);
      noteTouched(touched, result.rows, result.deleted);
      if (result.status === 'rejected') rejected.push(result);
    }
    // Canonical rows may have overwritten fields that later queued mutations change: re-apply
    // those mutations (only those, or a long queue would be re-applied once per batch).
    await rebase(db, ctx, touched);
    return { settled, rejected };
  });
}
