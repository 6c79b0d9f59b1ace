/**
 * Anchors in a directory's order of links (newest first), so a window far down the list is read
 * without stepping over every link before it (docs/scale.md).
 *
 * IndexedDB reaches an offset by stepping over every index entry before it: in Chromium with the
 * database on disk about 10 µs an entry (1 µs in memory), 500 ms to the end of 50,000 links. An
 * anchor is every ANCHOR_STEP-th link's key in [directory_id+created_at+id] with its place; from
 * the anchor before it, a window is at most ANCHOR_STEP entries (2.5 ms) away.
 *
 * Places hold while the directory's moves count (index-counts.ts movesKey: links arriving or
 * leaving, not edits) is the one they were taken at. When it grew by d and the links above the
 * second anchor grew by d too, every move was a link arriving above it (a new link, the usual
 * case): each place moves down by d. Otherwise the anchors are dropped and taken again when the
 * browser is idle.
 *
 * The walk that takes them costs what a read at the end of the list costs (0.5 s for 50,000
 * links on disk), so they are kept in the meta store too: a directory opened again starts from
 * them, checked and shifted the same way.
 */
import Dexie from 'dexie';
import type { LinkboardDb } from '../db.ts';
import { keptCounts } from '../counts.ts';
import { COUNTS_STORE, movesKey, type CountRow } from '../index-counts.ts';

export const WINDOW_INDEX = '[directory_id+created_at+id]';

export const ANCHOR_STEP = 250;

/**
 * Every key of the directory: [directoryId] sorts before each of its entries (a shorter array
 * first) and [directoryId, []] after (an array after every string). Dexie.maxKey twice in one key
 * would be refused: IndexedDB takes no object twice in a key.
 */
export const directoryStart = (directoryId: string) => [directoryId];
export const directoryEnd = (directoryId: string) => [directoryId, []];

export type AnchorKey = readonly [createdAt: string, id: string];

export interface Anchors {
  /** The directory's moves count the places hold at. */
  moves: number;
  /** Newest first: the key of the link at `places[i]`. */
  keys: readonly AnchorKey[];
  places: readonly number[];
}

/** The meta store's key of a directory's anchors. */
export const ANCHORS_META_PREFIX = 'anchors/saved_links/';
const metaKey = (directoryId: string) => `${ANCHORS_META_PREFIX}${directoryId}`;

const anchorsOf = new WeakMap<LinkboardDb, Map<string, Anchors>>();
const wanted = new WeakMap<LinkboardDb, Set<string>>();
/** The anchors being read or taken now, by directory (a far read waits for them rather than walk too). */
const underway = new WeakMap<LinkboardDb, Map<string, Promise<unknown>>>();

const byDirectory = (db: LinkboardDb): Map<string, Anchors> => {
  const found = anchorsOf.get(db) ?? new Map<string, Anchors>();
  anchorsOf.set(db, found);
  return found;
};

export const movesOf = async (db: LinkboardDb, directoryId: string): Promise<number> =>
  (await db.counts.get(movesKey('saved_links', 'directory_id', directoryId)))?.n ?? 0;

/** The anchors held for a directory, if any. */
export const anchorsFor = (db: LinkboardDb, directoryId: string): Anchors | null =>
  anchorsOf.get(db)?.get(directoryId) ?? null;

/**
 * Forgets every anchor of `db`, kept ones too (its synced tables are being cleared: rows may come
 * back at other places). Inside a transaction over the meta store.
 */
export async function forgetAnchors(db: LinkboardDb): Promise<void> {
  anchorsOf.delete(db);
  await db.meta.where('key').startsWith(ANCHORS_META_PREFIX).delete();
}

/** Whether a kept value is anchors (the meta store is the app's own, but a bad one must not break a read). */
function isAnchors(value: unknown): value is Anchors {
  if (typeof value !== 'object' || value === null) return false;
  const { moves, keys, places } = value as Partial<Anchors>;
  return (
    typeof moves === 'number' &&
    Array.isArray(keys) &&
    Array.isArray(places) &&
    keys.length === places.length &&
    keys.every((key) => Array.isArray(key) && key.length === 2 && key.every((part) => typeof part === 'string')) &&
    places.every((place) => typeof place === 'number')
  );
}

/**
 * Keeps `anchors` in the meta store, outside any live query's transaction (when idle), unless they
 * were let go meanwhile: a clear (forgetAnchors) or newer anchors must not be overwritten by a
 * write that was waiting for the browser to be idle.
 */
function keep(db: LinkboardDb, directoryId: string, anchors: Anchors): void {
  whenIdle(() => {
    if (anchorsFor(db, directoryId) !== anchors) return;
    void db.meta.put({ key: metaKey(directoryId), value: anchors }).catch(() => undefined);
  });
}

/** The last anchor at or above place `from` other than the newest link (which a read starts from anyway). */
export function anchorBefore(anchors: Anchors | null, from: number): { key: AnchorKey; place: number } | null {
  if (!anchors) return null;
  let found: { key: AnchorKey; place: number } | null = null;
  for (let i = 1; i < anchors.keys.length && anchors.places[i]! <= from; i += 1) {
    found = { key: anchors.keys[i]!, place: anchors.places[i]! };
  }
  return found;
}

/**
 * Walks the directory's index once, newest first, noting the key every ANCHOR_STEP entries (one
 * `advance` each: 200 requests for 50,000 links), with the moves count, in one read-only
 * transaction so the two agree.
 */
export async function takeAnchors(db: LinkboardDb, directoryId: string): Promise<Anchors> {
  const anchors = await new Promise<Anchors>((resolve, reject) => {
    const tx = db.backendDB().transaction([COUNTS_STORE, 'saved_links'], 'readonly');
    const keys: AnchorKey[] = [];
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
    tx.oncomplete = () => resolve({ moves, keys, places: keys.map((_, i) => i * ANCHOR_STEP) });
    tx.onerror = () => reject(tx.error ?? new Error('taking anchors failed'));
    tx.onabort = () => reject(tx.error ?? new Error('taking anchors aborted'));
  });
  byDirectory(db).set(directoryId, anchors);
  keep(db, directoryId, anchors);
  return anchors;
}

/** The kept anchors of a directory, made to hold now (shiftAnchors), or null. */
async function keptAnchors(db: LinkboardDb, directoryId: string): Promise<Anchors | null> {
  const kept = (await db.meta.get(metaKey(directoryId)))?.value;
  return isAnchors(kept) ? shiftAnchors(db, directoryId, kept) : null;
}

const whenIdle = (run: () => void): void => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 2_000 });
  else setTimeout(run, 50);
};

/**
 * The kept anchors of a directory put in memory now when they still hold (a window far down a
 * directory opened again reads from them at once, not after the browser is next idle). Outside
 * any transaction: it reads the meta store.
 */
export async function loadKeptAnchors(db: LinkboardDb, directoryId: string): Promise<void> {
  if (anchorsFor(db, directoryId)) return;
  await keptAnchors(db, directoryId).catch(() => null);
}

/**
 * After a pull from scratch (a new device, a reset), every long directory's anchors are taken at
 * once and kept, so the first far scroll of any of them reads from them (docs/scale.md): the walk
 * is IndexedDB's (an `advance` per anchor), a few callbacks on the main thread. Directories are
 * found by their kept counts: one read of the counts store.
 */
export async function wantLongDirectories(db: LinkboardDb): Promise<void> {
  for (const [directoryId, n] of await keptCounts(db, 'saved_links', 'directory_id')) {
    if (n >= 2 * ANCHOR_STEP) wantAnchors(db, directoryId, true);
  }
}

/**
 * Makes a directory's anchors ready when the browser is next idle (or at once, `now`), unless held
 * or already on the way: the kept ones when they still hold, else taken by a walk.
 */
export function wantAnchors(db: LinkboardDb, directoryId: string, now = false): void {
  if (anchorsFor(db, directoryId)) return;
  const busy = wanted.get(db) ?? new Set<string>();
  wanted.set(db, busy);
  if (busy.has(directoryId)) return;
  busy.add(directoryId);
  const running = underway.get(db) ?? new Map<string, Promise<unknown>>();
  underway.set(db, running);
  const run = () => {
    const done = keptAnchors(db, directoryId)
      .then((kept) => kept ?? takeAnchors(db, directoryId))
      .catch(() => undefined)
      .finally(() => {
        busy.delete(directoryId);
        running.delete(directoryId);
      });
    running.set(directoryId, done);
  };
  if (now) run();
  else whenIdle(run);
}

/** Waits for a directory's anchors when they are being read or taken now (a far read's walk would cost as much). */
export async function anchorsUnderway(db: LinkboardDb, directoryId: string): Promise<void> {
  const running = underway.get(db)?.get(directoryId);
  // Dexie.waitFor: a live query's read awaiting them stays observed.
  if (running) await Dexie.waitFor(running);
}

/**
 * Anchors taken at another moves count made to hold at `moves` when every move since was a link
 * arriving above the second anchor (see the module's comment); null (and dropped) otherwise.
 * Counts the links above that anchor: ANCHOR_STEP and the arrivals, not the directory.
 */
export async function shiftAnchors(db: LinkboardDb, directoryId: string, held: Anchors): Promise<Anchors | null> {
  const second = held.keys[1];
  const shifted = await db.transaction('r', db.saved_links, db.counts, async () => {
    const moves = await movesOf(db, directoryId);
    if (moves === held.moves) return held;
    if (!second || moves < held.moves) return null;
    const above = await db.saved_links
      .where(WINDOW_INDEX)
      .between([directoryId, ...second], directoryEnd(directoryId), false, true)
      .count();
    const arrived = moves - held.moves;
    if (above - held.places[1]! !== arrived) return null;
    return { moves, keys: held.keys, places: held.places.map((place, i) => (i === 0 ? 0 : place + arrived)) };
  });
  const anchors = byDirectory(db);
  if (shifted) anchors.set(directoryId, shifted);
  else if (anchors.get(directoryId) === held) anchors.delete(directoryId);
  if (shifted && shifted !== held) keep(db, directoryId, shifted);
  return shifted;
}
