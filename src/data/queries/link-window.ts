/**
 * A directory's links as the Links screen shows them: only the rows in
 * view, read newest first through the [directory_id+created_at+id] index (from an anchor near
 * them in a long directory: link-anchors.ts), and the directory's kept count (index-counts.ts).
 * A write to another directory wakes neither; a write to this one re-reads one window and one
 * count row, not the directory. A search of a directory of up to IN_MEMORY_MAX links matches its
 * links held in memory (in the keystroke's own render), a longer one's reads its first matches
 * through the token index on each keystroke (link-search.ts).
 * Changes made on this device show before IndexedDB commits them (pending-writes.ts).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useMemo } from 'react';
import { rowWords, searchOrder, searchWords, SEPARATOR } from '../../domain/search-words.ts';
import { keptCount } from '../counts.ts';
import type { LinkboardDb } from '../db.ts';
import { resolveWrites, type PendingWrite } from '../pending-writes.ts';
import type { LinkRow } from '../rows.ts';
import {
  anchorBefore,
  anchorsFor,
  anchorsUnderway,
  ANCHOR_STEP,
  directoryEnd,
  directoryStart,
  loadKeptAnchors,
  movesOf,
  shiftAnchors,
  wantAnchors,
  WINDOW_INDEX,
  type Anchors,
} from './link-anchors.ts';
import { newestFirstOrder } from './directories.ts';
import { matchHeld, searchDirectory, type LinkMatches } from './link-search.ts';
import { useSearchScope } from './search-scope.ts';
import { overlay, readSince, sameRows, useWithPending, type SinceRead } from './live-rows.ts';
import { useWindowRead } from '../use-link-window-read.ts';
import { useHeldDirectory, type HeldDirectory } from './held-directory.ts';

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
  /** A search shows its first SEARCH_SHOWN matches: whether more links may match. */
  more: boolean;
  /** The directory's links are held in memory: a scroll anywhere renders in its own frame (held-directory.ts). */
  held: boolean;
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

/**
 * Links `from` to `to` of a directory, newest first, through [directory_id+created_at+id]: from
 * the anchor before `from` when there is one (link-anchors.ts), else from the newest link. The
 * window's two end keys are found with a key cursor (an advance each, inside IndexedDB), then its
 * rows read in one getAll between them: a cursor over the rows would make one request per row
 * (0.2 ms each in Chromium). A live query over this is woken only by writes to this directory's
 * links.
 */
async function windowRows(
  db: LinkboardDb,
  directoryId: string,
  from: number,
  to: number,
  anchors: Anchors | null,
): Promise<LinkRow[]> {
  const anchor = anchorBefore(anchors, from);
  const upper = anchor ? [directoryId, ...anchor.key] : directoryEnd(directoryId);
  const skip = from - (anchor?.place ?? 0);
  const keys = (n: number, limit: number) =>
    db.saved_links
      .where(WINDOW_INDEX)
      .between(directoryStart(directoryId), upper, true, true)
      .reverse()
      .offset(n)
      .limit(limit)
      .keys() as Promise<unknown[][]>;
  const keyAt = async (n: number) => (await keys(n, 1))[0];
  // Two advances step over `skip` entries twice; past an anchor's step, one walk over the
  // window's keys (a request per key) costs less than the second.
  const [newest, oldest] =
    skip > ANCHOR_STEP
      ? await keys(skip, to - from).then((found) => [found[0], found.at(-1)])
      : await Promise.all([skip === 0 ? upper : keyAt(skip), keyAt(skip + to - from - 1)]);
  if (newest === undefined) return [];
  const rows = await db.saved_links
    .where(WINDOW_INDEX)
    .between(oldest ?? directoryStart(directoryId), newest, true, true)
    .toArray();
  return rows.reverse();
}

/**
 * Links `from` to `to` of a directory, newest first (see windowRows), with the directory's
 * moves count read beside them: a window read from anchors taken at another count is read again
 * from the anchors shifted past the links that arrived since, or from the newest link.
 */
export async function readWindowRows(
  db: LinkboardDb,
  directoryId: string,
  from: number,
  to: number,
): Promise<LinkRow[]> {
  // A directory opened again finds its kept anchors before its first far window is read; anchors
  // being taken (after a first sync) are waited for: the read's own walk would cost as much.
  if (from >= 2 * ANCHOR_STEP) {
    await anchorsUnderway(db, directoryId);
    await loadKeptAnchors(db, directoryId);
  }
  // One read-only transaction: the window's end keys, its rows and the moves count agree.
  return db.transaction('r', db.saved_links, db.counts, async () => {
    const held = anchorsFor(db, directoryId);
    const anchors = anchorBefore(held, from) ? held : null;
    const [moves, rows] = await Promise.all([movesOf(db, directoryId), windowRows(db, directoryId, from, to, anchors)]);
    if (!anchors || anchors.moves === moves) return rows;
    const shifted = await shiftAnchors(db, directoryId, anchors);
    if (!shifted) wantAnchors(db, directoryId);
    return windowRows(db, directoryId, from, to, shifted);
  });
}

/**
 * One read of the Links screen (a live query): the directory's kept count (index-counts.ts) and
 * its window of links.
 */
export function readLinkWindow(db: LinkboardDb, directoryId: string, from: number, to: number) {
  return readSince(db, async () => {
    const [count, rows] = await Promise.all([
      keptCount(db, 'saved_links', 'directory_id', directoryId),
      readWindowRows(db, directoryId, from, to),
    ]);
    // A long directory's anchors are taken when the browser is idle, before a scroll needs them.
    if (count >= 2 * ANCHOR_STEP) wantAnchors(db, directoryId);
    const slice: LinkSlice = { total: count, start: from, rows };
    return { count, slice };
  });
}

/** Links `from` to `to` of a directory held in memory, as readLinkWindow answers them. */
export function heldWindowOf(held: HeldDirectory, from: number, to: number) {
  const count = held.links.length;
  const rows = held.links.slice(from, to);
  return { count, slice: { total: count, start: from, rows } satisfies LinkSlice, since: held.since };
}

/** Whether two answers of the window show the same: a beat of a burst elsewhere re-renders nothing. */
const sameListed = (a: { count: number; shown: LinkSlice }, b: { count: number; shown: LinkSlice }) =>
  a.count === b.count &&
  a.shown.total === b.shown.total &&
  a.shown.start === b.shown.start &&
  sameRows(a.shown.rows, b.shown.rows);

/** A search of one directory shows at most this many links (docs/product.md, Links screen). */
export const SEARCH_SHOWN = 200;
/**
 * A directory of at most this many links is searched in memory: its links read once while the
 * search is used (about 20 MB at this size), each keystroke matched in its own render.
 */
export const IN_MEMORY_MAX = 25_000;
/** One search of a long directory (a live query): its first SEARCH_SHOWN matches, through the token index. */
export function readLinkSearch(db: LinkboardDb, words: readonly string[], ids: ReadonlySet<string>) {
  return readSince(db, async () => ({ words, ...(await searchDirectory(db, words, SEARCH_SHOWN, ids)) }));
}

/** Where a link comes in a search's list (searchOrder), null for one that does not match. */
const orderIn = (words: readonly string[]) => (row: LinkRow) => searchOrder(rowWords(row), row.created_at, words);

/**
 * A search's matches with the pending writes laid over them: a link changed so that it no longer
 * matches leaves, one that now matches comes in at its place in the index's order.
 */
function overlayMatches(
  rows: readonly LinkRow[],
  writes: readonly PendingWrite[],
  directoryId: string,
  words: readonly string[],
): LinkRow[] {
  if (writes.length === 0) return rows as LinkRow[];
  const order = orderIn(words);
  const key = (row: LinkRow) => `${order(row) ?? ''}${SEPARATOR}${row.id}`;
  return overlay(rows, writes, {
    belongs: (row) => row.directory_id === directoryId && order(row) !== null,
    compare: (a, b) => {
      const [ka, kb] = [key(a), key(b)];
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    },
  });
}

/**
 * The Links screen's data for one directory: its count, and either the window [start, end) (no
 * search) or the first SEARCH_SHOWN matches of `query`. Undefined while the first read runs.
 * While `primed` (the search box has the focus) or searching, what the search needs is read once
 * (readSearchScope): the links of a directory of up to IN_MEMORY_MAX, matched in memory on each
 * keystroke, or a longer one's ids, each keystroke then reading the token index (link-search.ts). Until a search's first
 * answer, the window (or the last search's matches) stays on screen.
 */
export function useLinkWindow(
  db: LinkboardDb,
  directoryId: string,
  query: string,
  range: { start: number; end: number },
  primed = false,
  inMemoryMax = IN_MEMORY_MAX,
): LinkWindow | undefined {
  // A page beyond the view on each side is read too, so scrolling shows rows, not placeholders.
  const { from, to } = pagesFor(range.start - LINK_PAGE, range.end + LINK_PAGE);
  // A new window comes from the directory's links held in memory, rendered in the task asking for
  // it (a scroll's); without them its read starts in that task, not in a timer after its frame.
  const held = useHeldDirectory(db, directoryId);
  const heldWindow = useCallback(
    (from: number, to: number) => (held ? heldWindowOf(held, from, to) : undefined),
    [held],
  );
  const windowed = useWindowRead(db, directoryId, from, to, readLinkWindow, heldWindow);
  const words = useMemo(() => searchWords(query), [query]);
  const wordsKey = words.join(SEPARATOR);
  const wantScope = primed || words.length > 0;
  const scope = useSearchScope(db, directoryId, held, wantScope, inMemoryMax);
  const ids = words.length > 0 ? scope?.ids : null;
  const found = useLiveQuery(
    () => (ids ? readLinkSearch(db, words, ids) : undefined),
    // `words` changes with `wordsKey`, which says when it does.
    [db, wordsKey, ids],
  );
  const inMemory = useMemo(() => {
    if (words.length === 0 || !scope?.held) return undefined;
    return { since: scope.since, words, ...matchHeld(scope.held, words, SEARCH_SHOWN) };
  }, [scope, words]);
  const applyWindow = useCallback(
    (read: NonNullable<typeof windowed>, pending: (table: 'saved_links') => readonly PendingWrite[]) => {
      const shown = overlaySlice(read.slice, pending('saved_links'), directoryId);
      return { count: read.count + (shown.total - read.slice.total), shown };
    },
    [directoryId],
  );
  const applySearch = useCallback(
    (
      read: LinkMatches & SinceRead & { words: readonly string[] },
      pending: (table: 'saved_links') => readonly PendingWrite[],
    ) => ({
      rows: overlayMatches(read.rows, pending('saved_links'), directoryId, read.words),
      more: read.more,
    }),
    [directoryId],
  );
  const listed = useWithPending(db, windowed, applyWindow, sameListed);
  const matched = useWithPending(
    db,
    words.length === 0 ? undefined : (inMemory ?? (ids ? found : undefined)),
    applySearch,
  );
  return useMemo(() => {
    if (!listed) return undefined;
    const inMemory = held !== null;
    if (!matched) return { count: listed.count, shown: listed.shown, more: false, held: inMemory };
    return { count: listed.count, shown: sliceOf(matched.rows), more: matched.more, held: inMemory };
  }, [listed, matched, held]);
}
