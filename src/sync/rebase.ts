/** Re-applies queued mutations over server rows, so an optimistic change is never lost (design 3). */
import type { LinkboardDb } from '../data/db.ts';
import type { MutationContext } from '../data/mutation-context.ts';
import { mutatorOf } from '../data/mutators.ts';

/**
 * Runs inside the caller's transaction (every synced table and the outbox in scope). Every
 * outbox row, pending or failed, is re-applied in queue order, with its own creation time as
 * the clock. A mutation whose target is gone is a no-op (updates of missing rows do nothing).
 */
export async function rebase(db: LinkboardDb, ctx: MutationContext): Promise<void> {
  const queue = await db.outbox.orderBy('seq').toArray();
  for (const mutation of queue) {
    const at = new Date(mutation.created_at);
    await mutatorOf(mutation.name).apply(db, mutation.args as never, { ...ctx, now: () => at });
  }
}
