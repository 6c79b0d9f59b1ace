/**
 * A directory's links as the Links screen shows them (issue 15, point 1): only the rows in
 * view, read newest first through the [directory_id+created_at] index, and the directory's
 * kept count (index-counts.ts). A write to another directory wakes neither; a write to this
 * one re-reads one window and one count row, not the directory. A search reads the directory's
 * links once and filters them in memory on each keystroke. Changes made on this device show
 * before IndexedDB commits them (pending-writes.ts).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback } from 'react';
import { keptCount } from '../counts.ts';
import { COUNTS_STORE, movesKey, type CountRow } from '../index-counts.ts';
import type { LinkboardDb } from '../db.ts';
import { resolveWrites, type PendingWrite } from '../pending-writes.ts';
import type { LinkRow } from '../rows.ts';
import { newestFirst, newestFirstOrder } from './directories.ts';
import { readSince, useWithPending } from './live-rows.ts';

/** Rows `start` to `start + rows.length` of a list of `total` links. */
export interface LinkSlice {
  total: number;
  start: number;
  rows: readonly LinkRow[];
}

export interface LinkWindow {
  /** Links in the directory. */
  count: number;
  /** What the list shows: the search's matches, or a window of the directory's links. */
  shown: LinkSlice;
}

/** Windows are read in pages of this many links (divisible by the grid's 1, 2 and 3 columns). */
export const LINK_PAGE = 48;

/** The whole list as one slice (a short list, tests). */
export const sliceOf = (rows: readonly LinkRow[]): LinkSlice => ({ total: rows.length, start: 0, rows });

/** The pages covering [start, end): what to read for a visible range. */
export function pagesFor(start: number, end: number): { from: number; to: number } {
  const from = Math.floor(Math.max(0, start) / LINK_PAGE) * LINK_PAGE;
  const to = Math.max(from + LINK_PAGE, Math.ceil(Math.max(end, start + 1) / LINK_PAGE) * LINK_PAGE);
  return { from, to };
}

/**
 * `slice` with the pending writes to `directoryId` applied where they land inside it: a row of
 * the slice replaced or removed, a new row inserted in order when it sorts within the slice (or
 * first, when the slice starts the list). Writes beyond the slice show once committed.
 */
export function overlaySlice(slice: LinkSlice, writes: readonly PendingWrite[], directoryId: string): LinkSlice {
  if (writes.length === 0) return slice;
  const latest = new Map<string, LinkRow | null>();
  const resolved = resolveWrites(writes, (key) => slice.rows.find((row) => row.id === key));
  for (const write of resolved) latest.set(write.key, write.row as LinkRow | null);
  const rows = [...slice.rows];
  let total = slice.total;
  for (const [key, row] of latest) {
    const reachesEnd = slice.start + rows.length >= total;
    const at = rows.findIndex((link) => link.id === key);
    if (at >= 0) {
      rows.splice(at, 1);
      total -= 1;
    }
    if (row === null || row.directory_id !== directoryId) continue;
    // A shown row stays; another lands here only when it sorts within the slice (a new link
    // at the top of the list, say); a row sorting outside it is not in view either.
    const first = rows[0];
    const last = rows[rows.length - 1];
    const inside =
      at >= 0 ||
      !first ||
      !last ||
      ((slice.start === 0 || newestFirstOrder(row, first) >= 0) && (reachesEnd || newestFirstOrder(row, last) <= 0));
    if (!inside) continue;
    let index = 0;
    while (index < rows.length && newestFirstOrder(rows[index] as LinkRow, row) <= 0) index += 1;
    rows.splice(index, 0, row);
    total += 1;
  }
  return { total, start: slice.start, rows };
}

const WINDOW_INDEX = '[directory_id+created_at+id]';

/**
 * Every key of the directory: [directoryId] sorts before each of its entries (a shorter array
 * first) and [directoryId, []] after (an array after every string). Dexie.maxKey twice in one key
 * would be refused: IndexedDB takes no object twice in a key.
 */
const directoryStart = (directoryId: string) => [directoryId];
const directoryEnd = (directoryId: string) => [directoryId, []];

const inDirectory = (db: LinkboardDb, directoryId: string) =>
  db.saved_links.where(WINDOW_INDEX).between(directoryStart(directoryId), directoryEnd(directoryId));

/**
 * Every ANCHOR_STEP-th link's place in a directory's order (newest first): its created_at and id,
 * the key of its [directory_id+created_at+id] entry. IndexedDB reaches an offset by stepping over
 * every entry before it (7 µs each in Chromium: 350 ms to the end of 50,000 links); from the
 * anchor before it, a window is at most ANCHOR_STEP entries away. Anchors hold while the
 * directory's moves count (index-counts.ts movesKey) is the one they were taken at: a link
 * arriving or leaving shifts every place after it, an edit shifts none.
 */
interface Anchors {
  moves: number;
  keys: readonly (readonly [createdAt: string, id: string])[];
}

export const ANCHOR_STEP = 1_000;

const anchorsOf = new WeakMap<LinkboardDb, Map<string, Anchors>>();
const taking = new WeakMap<LinkboardDb, Set<string>>();

/** Forgets every anchor of `db` (its synced tables were cleared: rows may come back at other places). */
export function forgetAnchors(db: LinkboardDb): void {
  anchorsOf.delete(db);
}

/**
 * Walks the directory's index once, newest first, noting the key every ANCHOR_STEP entries (one
 * `advance` each: 50 requests for 50,000 links), with the moves count, in one read-only
 * transaction so the two agree. Off the screen's path: a window read starts it when it had to
 * step far, and uses its anchors from the next read on.
 */
export async function takeAnchors(db: LinkboardDb, directoryId: string): Promise<void> {
  const busy = taking.get(db) ?? new Set<string>();
  taking.set(db, busy);
  if (busy.has(directoryId)) return;
  busy.add(directoryId);
  try {
    const anchors = await new Promise<Anchors>((resolve, reject) => {
      const tx = db.backendDB().transaction([COUNTS_STORE, 'saved_links'], 'readonly');
      const keys: (readonly [string, string])[] = [];
      let moves = 0;
      const counted = tx.objectStore(COUNTS_STORE).get(movesKey('saved_links', 'directory_id', directoryId));
      counted.onsuccess = () => {
        moves = (counted.result as CountRow | undefined)?.n ?? 0;
      };
      const range = db.keyRange.bound(directoryStart(directoryId), directoryEnd(directoryId));
      const walk = tx.objectStore('saved_links').index(WINDOW_INDEX).openKeyCursor(range, 'prev');
      walk.onsuccess = () => {
        const cursor = walk.result;
        if (!cursor) return;
        const key = cursor.key as [string, string, string];
        keys.push([key[1], key[2]]);
        cursor.advance(ANCHOR_STEP);
      };
      tx.oncomplete = () => resolve({ moves, keys });
      tx.onerror = () => reject(tx.error ?? new Error('taking anchors failed'));
      tx.onabort = () => reject(tx.error ?? new Error('taking anchors aborted'));
    });
    const byDirectory = anchorsOf.get(db) ?? new Map<string, Anchors>();
    byDirectory.set(directoryId, anchors);
    anchorsOf.set(db, byDirectory);
  } finally {
    busy.delete(directoryId);
  }
}

/**
 * Links `from` to `to` of a directory, newest first, through [directory_id+created_at+id]: from
 * the last anchor at or before `from` when there is one, else from the newest link. A live query
 * over this is woken only by writes to this directory's links. Answers the anchors it used.
 */
async function windowRows(
  db: LinkboardDb,
  directoryId: string,
  from: number,
  to: number,
): Promise<{ rows: LinkRow[]; used: Anchors | null }> {
  const anchors = anchorsOf.get(db)?.get(directoryId) ?? null;
  const k = anchors ? Math.min(Math.floor(from / ANCHOR_STEP), anchors.keys.length - 1) : 0;
  if (anchors && k > 0) {
    const [createdAt, id] = anchors.keys[k]!;
    const rows = await db.saved_links
      .where(WINDOW_INDEX)
      .between(directoryStart(directoryId), [directoryId, createdAt, id], true, true)
      .reverse()
      .offset(from - k * ANCHOR_STEP)
      .limit(to - from)
      .toArray();
    return { rows, used: anchors };
  }
  const rows = await inDirectory(db, directoryId)
    .reverse()
    .offset(from)
    .limit(to - from)
    .toArray();
  return { rows, used: null };
}

/**
 * Links `from` to `to` of a directory, newest first (see windowRows), with the directory's
 * moves count read beside them: anchors taken at another count are dropped and the window read
 * again from the newest link. A read that stepped over ANCHOR_STEP links or more takes anchors
 * for the next one.
 */
export async function readWindowRows(
  db: LinkboardDb,
  directoryId: string,
  from: number,
  to: number,
): Promise<LinkRow[]> {
  const [moves, first] = await Promise.all([keptMoves(db, directoryId), windowRows(db, directoryId, from, to)]);
  let { rows } = first;
  if (first.used && first.used.moves !== moves) {
    anchorsOf.get(db)?.delete(directoryId);
    rows = (await windowRows(db, directoryId, from, to)).rows;
  }
  if (from >= ANCHOR_STEP && !anchorsOf.get(db)?.has(directoryId)) {
    setTimeout(() => void takeAnchors(db, directoryId).catch(() => undefined), 0);
  }
  return rows;
}

const keptMoves = async (db: LinkboardDb, directoryId: string): Promise<number> =>
  (await db.counts.get(movesKey('saved_links', 'directory_id', directoryId)))?.n ?? 0;

/**
 * One read of the Links screen (a live query): the directory's kept count (index-counts.ts),
 * and its window of links or all of them when `searching`.
 */
export function readLinkWindow(db: LinkboardDb, directoryId: string, searching: boolean, from: number, to: number) {
  return readSince(db, async () => {
    const [count, rows] = await Promise.all([
      keptCount(db, 'saved_links', 'directory_id', directoryId),
      searching
        ? db.saved_links.where('directory_id').equals(directoryId).toArray().then(newestFirst)
        : readWindowRows(db, directoryId, from, to),
    ]);
    const slice: LinkSlice = searching ? sliceOf(rows) : { total: count, start: from, rows };
    return { count, all: searching, slice };
  });
}

/**
 * The Links screen's data for one directory: its count, and either the window [start, end)
 * (no search) or the matches of `search` (in memory). Undefined while the first read runs.
 */
export function useLinkWindow(
  db: LinkboardDb,
  directoryId: string,
  searching: boolean,
  matches: (link: LinkRow) => boolean,
  range: { start: number; end: number },
): LinkWindow | undefined {
  // A page beyond the view on each side is read too, so scrolling shows rows, not placeholders.
  const { from, to } = pagesFor(range.start - LINK_PAGE, range.end + LINK_PAGE);
  const live = useLiveQuery(
    () => readLinkWindow(db, directoryId, searching, from, to),
    [db, directoryId, searching, from, to],
  );
  const apply = useCallback(
    (read: NonNullable<typeof live>, pending: (table: 'saved_links') => readonly PendingWrite[]): LinkWindow => {
      const base = overlaySlice(read.slice, pending('saved_links'), directoryId);
      const count = read.count + (base.total - read.slice.total);
      return { count, shown: read.all ? sliceOf(base.rows.filter(matches)) : base };
    },
    [directoryId, matches],
  );
  return useWithPending(db, live, apply);
}
