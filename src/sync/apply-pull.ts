/** Applies one pulled page in ONE read-write transaction (design 3, Client). */
import { dropDirectories } from '../data/access.ts';
import type { LinkboardDb } from '../data/db.ts';
import type { MutationContext } from '../data/mutation-context.ts';
import { Touched } from '../data/targets.ts';
import type { PullAnswer } from '../backend/sync-transport.ts';
import { checkWireRows, clearSyncedTables, putRows, syncScope } from './apply-rows.ts';
import { rebase } from './rebase.ts';

export const CURSOR_KEY = 'cursor';
/** Set (by discard) to make the next pull start from scratch, like a server-ordered reset. */
export const RESET_KEY = 'reset';
export const LAST_PULLED_KEY = 'last_pulled_at';

export async function readPullState(db: LinkboardDb): Promise<{ cursor: string | null; reset: boolean }> {
  const [cursor, reset] = await Promise.all([db.meta.get(CURSOR_KEY), db.meta.get(RESET_KEY)]);
  const wantsReset = reset?.value === true;
  return { cursor: wantsReset || typeof cursor?.value !== 'string' ? null : cursor.value, reset: wantsReset };
}

/**
 * Clears the synced tables first when the server ordered a reset (or a discard asked for one),
 * keeping the outbox; puts rows, deletes tombstones, purges directories, rebases the queue on top
 * (the mutations the page could have overwritten, or all of them after a clear), and stores the
 * new cursor, all in one transaction.
 */
export async function applyPullPage(
  db: LinkboardDb,
  page: PullAnswer,
  options: { clear: boolean; ctx: MutationContext },
): Promise<void> {
  // Checked before the transaction: an invalid row writes nothing and fails the sync clearly.
  checkWireRows(page.changes);
  await db.transaction('rw', syncScope(db), async () => {
    const fromScratch = options.clear || page.reset === true;
    if (fromScratch) await clearSyncedTables(db);
    // What the page writes and deletes (purged directories with their content) is noted; after
    // a clear every optimistic row is gone, so the whole queue is re-applied. Otherwise only the
    // mutations whose declared targets the page touched, or a long queue would be re-applied
    // once per page of a big pull.
    const touched = new Touched();
    await putRows(db, page.changes, touched);
    await dropDirectories(db, page.purge?.directory_ids ?? [], touched);
    await rebase(db, options.ctx, fromScratch ? undefined : touched);
    await db.meta.bulkPut([
      { key: CURSOR_KEY, value: page.cursor },
      { key: LAST_PULLED_KEY, value: options.ctx.now().toISOString() },
    ]);
    await db.meta.delete(RESET_KEY);
  });
}
