/**
 * The open directory's links held in memory (docs/scale.md, the scroll): a scroll to any place
 * renders its window from them in the scroll's own task, with no IndexedDB read, so the rows are
 * painted in the scroll's own frame. Held while the directory is on screen and has at most
 * HELD_MAX links (about 1 KB a link as stored, with its words: some 20 MB at 20,000), let go when
 * it leaves the screen.
 *
 * Read once, a page at a time in the index's order ([directory_id+created_at+id], read forward
 * with getAll: a reverse read is a request per row), then kept up to date by each write rather than
 * read again: Dexie's `storagemutated` names the links a write changed (its primary keys; this
 * tab's writes, the other tabs' and the service worker's through Dexie's channel), which are read
 * by key and put at their place (newest first: created_at, then id, both descending, as the index
 * reversed). A write naming a range rather than keys (a pulled page of 50 links or more, a clear)
 * makes them stale: read again when the browser is next idle, and meanwhile not used (the window
 * read answers). The pending writes (pending-writes.ts) are laid over them as over a window read:
 * `since` is the commit epoch up to which they hold every write.
 */
import Dexie, { type ObservabilitySet } from 'dexie';
import { useEffect, useSyncExternalStore } from 'react';
import type { LinkboardDb } from './db.ts';
import type { LinkRow } from './rows.ts';
import { directoryEnd, directoryStart, WINDOW_INDEX } from './queries/link-anchors.ts';
import { windowReadsDone } from './use-link-window-read.ts';

/** The most links a directory may have for its links to be held (the in-memory search's size too). */
export const HELD_MAX = 25_000;
/**
 * Links are read this many at a time, the browser idle between two reads: each read's rows are
 * copied on the main thread, and a window read (a far scroll before they are held) must not wait
 * behind the whole directory's.
 */
const READ_PAGE = 250;

/** A directory's links held: newest first, the latest write of each applied. */
export interface HeldDirectory {
  readonly db: LinkboardDb;
  readonly directoryId: string;
  /** Newest first, or null until the first read has ended. Changed in place: `version` says when. */
  rows: LinkRow[] | null;
  /** The commit epoch (db.pending) up to which every write is in `rows`. */
  since: number;
  /** A write came that `rows` does not hold (a range written): read again, not to be used meanwhile. */
  stale: boolean;
  version: number;
  /** The screens holding it (let go at none). */
  users: number;
  /** Links a write changed while the read ran, applied once it ends. */
  changedDuringRead: Set<string> | null;
  /** Changes being applied, one after the other. */
  applying: Promise<void>;
  cancelRead: (() => void) | null;
}

/** The held directories, by database and directory. */
const heldOf = new Map<LinkboardDb, Map<string, HeldDirectory>>();

/** Newest first: created_at descending, then id descending (the window index's order reversed). */
export function newestFirst(a: LinkRow, b: LinkRow): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? 1 : -1;
  return a.id === b.id ? 0 : a.id < b.id ? 1 : -1;
}

/** The first index of `rows` (newest first) whose row comes after `row`, by binary search. */
function placeOf(rows: readonly LinkRow[], row: LinkRow): number {
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (newestFirst(rows[middle]!, row) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * `rows` (newest first) with the links of `changed` (by id: their rows now, undefined when gone)
 * applied: a link gone or moved to another directory leaves, one new or changed comes in at its place.
 */
export function applyChanged(
  rows: LinkRow[],
  directoryId: string,
  changed: ReadonlyMap<string, LinkRow | undefined>,
): void {
  for (const [id, row] of changed) {
    const at = rows.findIndex((held) => held.id === id);
    if (at >= 0) rows.splice(at, 1);
    if (!row || row.directory_id !== directoryId || typeof row.created_at !== 'string') continue;
    rows.splice(placeOf(rows, row), 0, row);
  }
}

const idle = (run: () => void): (() => void) => {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(run, { timeout: 1_000 });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(run, 50);
  return () => clearTimeout(timer);
};

/** A directory's links newest first, read forward through the window index a page at a time. */
export async function readDirectoryRows(db: LinkboardDb, directoryId: string): Promise<LinkRow[]> {
  const rows: LinkRow[] = [];
  let lower: unknown[] = directoryStart(directoryId);
  for (;;) {
    // A scroll's window read (before the links are held) first: the first far scroll as the
    // directory shows waited for the whole directory's read (docs/scale.md, the scroll).
    await windowReadsDone();
    const page = await db.saved_links
      .where(WINDOW_INDEX)
      .between(lower, directoryEnd(directoryId), rows.length === 0, true)
      .limit(READ_PAGE)
      .toArray();
    for (const row of page) rows.push(row);
    const last = page.at(-1);
    if (!last || page.length < READ_PAGE) return rows.reverse();
    lower = [directoryId, last.created_at, last.id];
    await new Promise<void>((resolve) => idle(resolve));
  }
}

/** The keys of a range set (Dexie's, or as another tab sent it): null when it holds a range, not keys. */
export function keysOf(set: unknown): string[] | null {
  const keys: string[] = [];
  const visit = (node: unknown): boolean => {
    if (typeof node !== 'object' || node === null || !('from' in node)) return true;
    const { from, to, l, r } = node as { from: unknown; to: unknown; l?: unknown; r?: unknown };
    if (typeof from !== 'string' || from !== to) return false;
    keys.push(from);
    return visit(l) && visit(r);
  };
  return visit(set) ? keys : null;
}

/** Screens told of any change of the held links (a directory held, let go, read or written). */
const listeners = new Set<() => void>();
let changeCount = 0;
const changes = () => changeCount;
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};
const tellAll = () => {
  changeCount += 1;
  for (const listener of listeners) listener();
};

const tell = (held: HeldDirectory) => {
  held.version += 1;
  tellAll();
};

/** Reads the held links (again) when the browser is next idle. */
function read(held: HeldDirectory): void {
  if (held.cancelRead || held.changedDuringRead) return;
  const start = () => {
    held.cancelRead = null;
    if (held.users === 0) return;
    held.changedDuringRead = new Set();
    held.stale = false;
    const since = held.db.pending.currentEpoch();
    const done = (rows: LinkRow[] | null) => {
      const changed = held.changedDuringRead;
      held.changedDuringRead = null;
      if (!rows) {
        held.stale = true;
      } else {
        held.rows = rows;
        held.since = since;
      }
      tell(held);
      if (held.stale) read(held);
      else if (changed && changed.size > 0) change(held, [...changed]);
    };
    readDirectoryRows(held.db, held.directoryId).then(done, () => done(null));
  };
  held.cancelRead = idle(start);
}

/** Applies a write of the links `ids` (read by key), after the changes before it. */
function change(held: HeldDirectory, ids: readonly string[]): void {
  if (held.changedDuringRead) {
    for (const id of ids) held.changedDuringRead.add(id);
    return;
  }
  // Writes committed up to now are in what the read by key finds.
  const since = held.db.pending.currentEpoch();
  held.applying = held.applying.then(async () => {
    if (held.stale || !held.rows || held.users === 0) return;
    const found = await held.db.saved_links.bulkGet([...ids]).catch(() => null);
    if (held.stale || !held.rows) return;
    if (!found) {
      held.stale = true;
      tell(held);
      read(held);
      return;
    }
    const changed = new Map<string, LinkRow | undefined>(ids.map((id, i) => [id, found[i]]));
    applyChanged(held.rows, held.directoryId, changed);
    held.since = Math.max(held.since, since);
    tell(held);
  });
}

let listening = false;
function listen(): void {
  if (listening) return;
  listening = true;
  Dexie.on('storagemutated', (parts: ObservabilitySet) => {
    for (const [db, directories] of heldOf) {
      const part = parts[`idb://${db.name}/saved_links/`];
      if (part === undefined || directories.size === 0) continue;
      const keys = keysOf(part);
      for (const held of directories.values()) {
        if (keys === null) {
          held.stale = true;
          tell(held);
          read(held);
        } else if (keys.length > 0) {
          change(held, keys);
        }
      }
    }
  });
}

/** Holds a directory's links for one more screen; answers the release. */
export function holdDirectory(db: LinkboardDb, directoryId: string): () => void {
  listen();
  const directories = heldOf.get(db) ?? new Map<string, HeldDirectory>();
  heldOf.set(db, directories);
  let held = directories.get(directoryId);
  if (!held) {
    held = {
      db,
      directoryId,
      rows: null,
      since: 0,
      stale: false,
      version: 0,
      users: 0,
      changedDuringRead: null,
      applying: Promise.resolve(),
      cancelRead: null,
    };
    directories.set(directoryId, held);
    tellAll();
  }
  held.users += 1;
  // Not in the way of the directory's first paint: its window read answers until then.
  if (!held.rows) read(held);
  const entry = held;
  return () => {
    entry.users -= 1;
    if (entry.users > 0) return;
    entry.cancelRead?.();
    entry.cancelRead = null;
    if (directories.get(directoryId) === entry) directories.delete(directoryId);
    if (directories.size === 0) heldOf.delete(db);
    tellAll();
  };
}

/** The held links of a directory, if held (tests). */
export const heldDirectory = (db: LinkboardDb, directoryId: string): HeldDirectory | null =>
  heldOf.get(db)?.get(directoryId) ?? null;

/**
 * A directory's links held while the screen shows it and `hold` (it has more links than one window
 * and at most HELD_MAX): the held entry, re-rendering on each change (its `version`), or null.
 */
export function useHeldDirectory(db: LinkboardDb, directoryId: string, hold: boolean): HeldDirectory | null {
  useEffect(() => (hold ? holdDirectory(db, directoryId) : undefined), [db, directoryId, hold]);
  useSyncExternalStore(subscribe, changes);
  return hold ? heldDirectory(db, directoryId) : null;
}
