/** Applies one pulled page in ONE read-write transaction (docs/sync-protocol.md, Client). */
import { dropDirectories } from '../data/access.ts';
import type { LinkboardDb } from '../data/db.ts';
import type { MutationContext } from '../data/mutation-context.ts';
import { withMutators } from '../data/mutator-registry.ts';
import { Touched } from '../data/targets.ts';
import type { PullAnswer } from '../backend/sync-transport.ts';
import { RowChanges, ScopeTooNarrow, clearSyncedTables, syncScope, withChildren } from './apply-rows.ts';
import { deferWordsOfThisTransaction } from '../data/word-backlog.ts';
import { rebase } from './rebase.ts';

export const CURSOR_KEY = 'cursor';
/** Set (by discard) to make the next pull start from scratch, like a server-ordered reset. */
export const RESET_KEY = 'reset';

export async function readPullState(db: LinkboardDb): Promise<{ cursor: string | null; reset: boolean }> {
  const [cursor, reset] = await db.meta.bulkGet([CURSOR_KEY, RESET_KEY]);
  const wantsReset = reset?.value === true;
  return { cursor: wantsReset || typeof cursor?.value !== 'string' ? null : cursor.value, reset: wantsReset };
}

/** Whether a page changes nothing on the device: no rows, no purge, no reset. */
export function isEmptyPage(page: PullAnswer): boolean {
  return (
    !page.reset &&
    (page.purge?.directory_ids.length ?? 0) === 0 &&
    Object.values(page.changes ?? {}).every((rows) => !rows || rows.length === 0)
  );
}

export interface ApplyPullOptions {
  /** Clear the synced tables first (a discard asked for a pull from scratch). */
  clear: boolean;
  ctx: MutationContext;
  /**
   * Whether the page follows a cursor (an incremental pull): rows the device already holds
   * unchanged are then not written again. A pull from scratch writes every row without reading
   * first.
   */
  incremental?: boolean;
  /**
   * Store the page's links without their words, for the word backlog's pass to index
   * (word-backlog.ts): a pull from scratch's pages, most of whose cost the words would be.
   */
  deferWords?: boolean;
}

/**
 * Clears the synced tables first when the server ordered a reset (or a discard asked for one),
 * keeping the outbox; puts rows, deletes tombstones, purges directories, rebases the queue on top
 * (the mutations the page could have overwritten, or all of them after a clear), and stores the
 * new cursor, all in one transaction over only the tables the page writes (with the outbox and
 * meta). A page that changes nothing writes nothing and opens no transaction: it returns false,
 * and the caller keeps its cursor in memory.
 */
export async function applyPullPage(db: LinkboardDb, page: PullAnswer, options: ApplyPullOptions): Promise<boolean> {
  const fromScratch = options.clear || page.reset === true;
  if (!fromScratch && isEmptyPage(page)) return false;
  // Checked (by addRows, once) before the transaction: an invalid row writes nothing and fails
  // the sync clearly.
  const rows = new RowChanges();
  rows.addRows(page.changes);
  const purge = page.purge?.directory_ids ?? [];
  const written = rows.tables();
  if (purge.length > 0) for (const name of withChildren(['link_directories'])) written.add(name);
  const deferWords = options.deferWords === true;
  const run = (narrow: boolean) =>
    db.transaction('rw', narrow ? [...written, 'outbox', 'meta', 'counts'] : syncScope(db), async () => {
      if (fromScratch) {
        await clearSyncedTables(db);
        // The words a pass wrote for links now gone, or about to come again.
        await db.link_words.clear();
      }
      if (deferWords) await deferWordsOfThisTransaction(db);
      // What the page writes and deletes (purged directories with their content) is noted; after
      // a clear every optimistic row is gone, so the whole queue is re-applied. Otherwise only the
      // mutations whose declared targets the page touched, or a long queue would be re-applied
      // once per page of a big pull.
      const touched = new Touched();
      await rows.write(db, touched, { skipUnchanged: options.incremental === true && !fromScratch });
      await dropDirectories(db, purge, touched);
      await rebase(db, options.ctx, fromScratch ? undefined : touched, narrow ? new Set<string>(written) : undefined);
      await db.meta.put({ key: CURSOR_KEY, value: page.cursor });
      if (options.clear) await db.meta.delete(RESET_KEY);
    });
  try {
    await withMutators(() => run(!fromScratch));
  } catch (error) {
    // A mutation queued meanwhile needs a table the page does not write: again, over every table.
    if (!(error instanceof ScopeTooNarrow)) throw error;
    await withMutators(() => run(false));
  }
  return true;
}
