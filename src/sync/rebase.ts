/** Re-applies queued mutations over server rows, so an optimistic change is never lost (docs/sync-protocol.md). */
import type { LinkboardDb } from '../data/db.ts';
import type { MutationContext } from '../data/mutation-context.ts';
import { loadedMutatorOf } from '../data/mutator-registry.ts';
import { checkEntries, OUTBOX_VERSION, type OutboxRow } from '../data/outbox.ts';
import type { Touched } from '../data/targets.ts';
import { requireScope } from './apply-rows.ts';

/**
 * Whether re-applying `mutation` could change anything after the server writes in `touched`:
 * one of the rows its mutator declares (targets) was written or deleted.
 */
export function mayTouch(mutation: OutboxRow, touched: Touched, userId: string): boolean {
  return touched.hasAny(loadedMutatorOf(mutation.name).targets(mutation.args as never, { userId }));
}

/**
 * Whether a stored entry may need re-applying after the writes in `touched`, before it is checked:
 * false only for an entry of this version whose mutator's targets it misses (the check would
 * pass it or fail it, and either way it is not re-applied); any entry that cannot be asked is
 * left to the check.
 */
function mightTouch(row: OutboxRow, touched: Touched, userId: string): boolean {
  if (row.version !== OUTBOX_VERSION) return true;
  try {
    return mayTouch(row, touched, userId);
  } catch {
    return true;
  }
}

/**
 * Runs inside the caller's transaction (the outbox and the tables of the mutations it
 * re-applies in scope; with `scope`, a mutation needing another table throws ScopeTooNarrow).
 * Every outbox row, pending or failed, is re-applied in queue order, with its own creation time
 * as the clock. A mutation whose target is gone is a no-op (updates of missing rows do nothing).
 * With `touched`, only the mutations whose declared targets were touched are re-applied (the
 * others' optimistic rows were not overwritten), so a push answer does not re-apply the whole
 * queue. An entry that fails its check (readOutbox) is skipped: it is failed, never applied.
 */
export async function rebase(
  db: LinkboardDb,
  ctx: MutationContext,
  touched?: Touched,
  scope?: ReadonlySet<string>,
): Promise<void> {
  if (touched && touched.size === 0) return;
  // One read of the queue: empty (the usual case), it answers at once. With `touched`, an entry of
  // this version whose targets it misses is passed over before its check (a push answer of 500
  // rebases against a queue of thousands, once per batch).
  const rows = await db.outbox.orderBy('seq').toArray();
  const { valid } = checkEntries(touched ? rows.filter((row) => mightTouch(row, touched, ctx.userId)) : rows);
  for (const mutation of valid) {
    if (touched && !mayTouch(mutation, touched, ctx.userId)) continue;
    requireScope(scope, mutation.name);
    const at = new Date(mutation.created_at);
    await loadedMutatorOf(mutation.name).apply(db, mutation.args as never, { ...ctx, now: () => at });
  }
}
