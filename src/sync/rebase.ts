/** Re-applies queued mutations over server rows, so an optimistic change is never lost (docs/sync-protocol.md). */
import type { LinkboardDb } from '../data/db.ts';
import type { MutationContext } from '../data/mutation-context.ts';
import { loadedMutatorOf } from '../data/mutator-registry.ts';
import { readOutbox, type OutboxRow } from '../data/outbox.ts';
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
  // One read of the queue: empty (the usual case), it answers at once.
  const { valid } = await readOutbox(db);
  for (const mutation of valid) {
    if (touched && !mayTouch(mutation, touched, ctx.userId)) continue;
    requireScope(scope, mutation.name);
    const at = new Date(mutation.created_at);
    await loadedMutatorOf(mutation.name).apply(db, mutation.args as never, { ...ctx, now: () => at });
  }
}
