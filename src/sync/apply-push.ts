/** Applies a push answer: drop settled mutations, write canonical rows, rebase the rest. */
import type { LinkboardDb } from '../data/db.ts';
import type { MutationContext } from '../data/mutation-context.ts';
import { withMutators } from '../data/mutator-registry.ts';
import type { OutboxRow } from '../data/outbox.ts';
import { Touched } from '../data/targets.ts';
import { InvalidRowError } from '../data/synced-tables.ts';
import { SyncTransportError, type PushAnswer, type PushResult } from '../backend/sync-transport.ts';
import { RowChanges, checkWireRows, syncScope } from './apply-rows.ts';
import { rebase } from './rebase.ts';

export interface PushOutcome {
  settled: number;
  rejected: PushResult[];
}

/** Fallback wording when the server gives none (docs/product.md, Error messages uses 'Failed to ... Please try again.'). */
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

/** The queued entries a push sent: their ids, and their places in the queue. */
export type SentEntries = readonly Pick<OutboxRow, 'id' | 'seq'>[];

/**
 * The sent entries still in the outbox (a discard may have taken one meanwhile), by id, and the
 * queue's places they span when nothing else is queued between them (else null): one read of the
 * queue between the first and the last sent (a push is a run of the queue in order), not a lookup
 * per id (an `anyOf` over 500 ids walks the id index once per id).
 */
async function stillQueued(
  db: LinkboardDb,
  sent: SentEntries,
  ids: ReadonlySet<string>,
): Promise<{ queued: Map<string, number>; run: { first: number; last: number } | null }> {
  const seqs = sent.map((row) => row.seq);
  if (!seqs.every((seq) => typeof seq === 'number')) {
    const rows = await db.outbox
      .where('id')
      .anyOf([...ids])
      .toArray();
    return { queued: new Map(rows.map((row) => [row.id, row.seq as number])), run: null };
  }
  const [first, last] = [Math.min(...seqs), Math.max(...seqs)];
  const rows = await db.outbox.where(':id').between(first, last, true, true).toArray();
  const queued = new Map(rows.filter((row) => ids.has(row.id)).map((row) => [row.id, row.seq as number]));
  return { queued, run: queued.size === rows.length ? { first, last } : null };
}

/**
 * In one transaction: the answered mutations still in the outbox (a discard may have taken one
 * meanwhile) leave it in one bulk delete; the canonical rows of all results are merged in order
 * and written per table, skipping those the device holds unchanged (most of an own change comes
 * back as it was applied); then only the queued mutations those rows touched are re-applied.
 */
export async function applyPushAnswer(
  db: LinkboardDb,
  sentEntries: SentEntries,
  answer: PushAnswer,
  ctx: MutationContext,
): Promise<PushOutcome> {
  checkAnswerRows(answer);
  const sent = new Set(sentEntries.map((row) => row.id));
  const answered: PushResult[] = [];
  const seen = new Set<string>();
  for (const result of answer.results) {
    if (!sent.has(result.id) || seen.has(result.id)) continue;
    seen.add(result.id);
    answered.push(result);
  }
  return withMutators(() =>
    db.transaction('rw', syncScope(db), async () => {
      const { queued, run } = await stillQueued(db, sentEntries, seen);
      const settled = answered.filter((result) => queued.has(result.id));
      // Every entry queued across the sent run answered: the run leaves in one request, not one a row.
      if (run && settled.length === queued.size)
        await db.outbox.where(':id').between(run.first, run.last, true, true).delete();
      else await db.outbox.bulkDelete(settled.map((result) => queued.get(result.id) as number));
      const rows = new RowChanges();
      for (const result of settled) {
        rows.addRows(result.rows);
        rows.addDeleted(result.deleted);
      }
      // Canonical rows may have overwritten fields that later queued mutations change: re-apply
      // those mutations (only those, or a long queue would be re-applied once per batch).
      const touched = new Touched();
      await rows.write(db, touched, { skipUnchanged: true });
      await rebase(db, ctx, touched);
      return { settled: settled.length, rejected: settled.filter((result) => result.status === 'rejected') };
    }),
  );
}
