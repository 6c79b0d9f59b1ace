/**
 * The floor under the queued saves (docs/scale.md, "Queue 1,000 writes"), measured in the app's own
 * database at its size: `count` read-write transactions of plain IndexedDB, one after the other and
 * each awaited to its `complete`, asking what a new link's save asks (`tests/data/save-requests.test.ts`):
 * its directory, the row it would replace and its kept counts read together, then, once they have
 * answered, the link (a copy of one of the directory's rows: the same indexes and words), its counts
 * and an outbox entry written together. Neither Dexie nor the app runs, and no screen is told. The
 * rows are taken away afterwards (untimed) and the counts put back, so the data is as it was.
 */
import { COUNTS_STORE, countKey, movesKey } from '../data/index-counts.ts';
import { OUTBOX_VERSION } from '../data/outbox.ts';
import { directoryEnd, directoryStart, WINDOW_INDEX } from '../data/queries/link-anchors.ts';

/** The kept counts a new link's save writes (its directory's count and moves, its owner's count). */
export const keptCountKeys = (directoryId: string, ownerId: string) => [
  countKey('saved_links', 'directory_id', directoryId),
  movesKey('saved_links', 'directory_id', directoryId),
  countKey('saved_links', 'owner_id', ownerId),
];

const done = (tx: IDBTransaction) =>
  new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = tx.onerror = () => reject(tx.error ?? new Error('queue floor: transaction failed'));
  });

const answer = <T>(request: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('queue floor: request failed'));
  });

type Row = Record<string, unknown> & { id: string; directory_id: string; owner_id: string };

/** IndexedDB as the page has it; tests give their own. */
export interface Backend {
  factory: IDBFactory;
  keyRange: typeof IDBKeyRange;
}

/** Milliseconds from the first transaction's start to the last one's `complete`. */
export async function queueFloor(
  name: string,
  directoryId: string,
  count: number,
  prefix: string,
  backend: Backend = { factory: indexedDB, keyRange: IDBKeyRange },
): Promise<number> {
  const db = await answer(backend.factory.open(name));
  try {
    const read = db.transaction(['saved_links', COUNTS_STORE], 'readonly');
    const range = backend.keyRange.bound(directoryStart(directoryId), directoryEnd(directoryId));
    const template = (await answer(read.objectStore('saved_links').index(WINDOW_INDEX).get(range))) as Row | undefined;
    if (!template) throw new Error('queue floor: the directory has no link to copy');
    const keys = keptCountKeys(directoryId, template.owner_id);
    const before = await Promise.all(keys.map((key) => answer(read.objectStore(COUNTS_STORE).get(key))));
    const ids: string[] = [];
    const start = performance.now();
    // What was written is taken away even when a transaction fails (one that aborts wrote nothing).
    try {
      for (let i = 0; i < count; i += 1) {
        const id = crypto.randomUUID();
        ids.push(id);
        const tx = db.transaction(['link_directories', 'saved_links', COUNTS_STORE, 'outbox'], 'readwrite');
        const committed = done(tx);
        const links = tx.objectStore('saved_links');
        const counts = tx.objectStore(COUNTS_STORE);
        const [, , ...kept] = await Promise.all([
          answer(tx.objectStore('link_directories').get(directoryId)),
          answer(links.get(id)),
          ...keys.map((key) => answer(counts.get(key))),
        ]);
        const now = new Date().toISOString();
        const title = `${prefix} ${i}`;
        const words = Array.isArray(template._words) ? [prefix, ...(template._words as string[]).slice(1)] : [];
        links.put({ ...template, id, title, url: `https://floor.test/${prefix}/${i}`, created_at: now, _words: words });
        kept.forEach((row, k) => {
          const n = (row as { n?: number } | undefined)?.n ?? 0;
          counts.put({ key: keys[k], n: n + 1 });
        });
        tx.objectStore('outbox').add({
          id,
          name: 'link.create',
          args: { id, directory_id: directoryId, url: `https://floor.test/${prefix}/${i}`, title },
          created_at: now,
          attempts: 0,
          status: 'floor',
          version: OUTBOX_VERSION,
        });
        await committed;
      }
      return performance.now() - start;
    } finally {
      await undo(db, ids, keys, before);
    }
  } finally {
    db.close();
  }
}

/** Takes the probe's links and outbox entries away and puts the counts back as they were. */
async function undo(db: IDBDatabase, ids: readonly string[], keys: readonly string[], before: unknown[]) {
  const tx = db.transaction(['saved_links', COUNTS_STORE, 'outbox'], 'readwrite');
  const committed = done(tx);
  for (const id of ids) tx.objectStore('saved_links').delete(id);
  const outbox = tx.objectStore('outbox');
  const seqs = await Promise.all(ids.map((id) => answer(outbox.index('id').getKey(id))));
  for (const seq of seqs) if (seq !== undefined) outbox.delete(seq);
  keys.forEach((key, k) => {
    const row = before[k];
    if (row === undefined) tx.objectStore(COUNTS_STORE).delete(key);
    else tx.objectStore(COUNTS_STORE).put(row);
  });
  await committed;
}
