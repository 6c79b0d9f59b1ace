/**
 * The open directory's links held in memory, newest first, so a scroll anywhere in it renders its
 * rows in the scroll's own task and frame (docs/scale.md, the scroll). A read of IndexedDB answers
 * in a later task, after the frame the scroll is drawn in: a far scroll read from the database is
 * painted a frame late at best.
 *
 * Held only while the directory is on screen, for a directory of more than HOLD_ABOVE links and at
 * most HOLD_MAX (about 20 MB at that size, the heap the directory's search holds too). Read
 * HOLD_AFTER_MS after it shows, a small page at a time, each when the browser is idle: a far scroll
 * made at once, or any read or save meanwhile, does not wait behind them. A write that touches the
 * directory (one of its links changed or removed, a link arriving in it; any write while the read
 * runs) makes them stale: not used, and read again once the writes have paused. Until then, and for
 * a longer directory, the window is read from IndexedDB as before.
 *
 * Writes made on this device after the read began are laid over them like over any live read
 * (`since`, pending-writes.ts); they are told of by Dexie's `storagemutated`, at the commit or at the
 * burst's next beat (burst-wakes.ts), well within the time committed writes stay laid over reads.
 */
import Dexie, { RangeSet, rangesOverlap, type IntervalTree, type ObservabilitySet } from 'dexie';
import { useEffect, useState } from 'react';
import { keptCount } from '../counts.ts';
import type { LinkboardDb } from '../db.ts';
import { whenIdle } from '../../timing/when-idle.ts';
import { directoryEnd, directoryStart, WINDOW_INDEX } from './link-anchors.ts';
import type { LinkRow } from '../rows.ts';
import { forEachDirectoryPage, holdLink, type HeldLink } from './link-search.ts';

/** A directory of up to this many links is not held: the window it reads (a page beyond the view) already covers it. */
export const HOLD_ABOVE = 96;
/** The most links a directory may have to be held. */
export const HOLD_MAX = 25_000;
/** The links are read this long after the directory shows (and once the browser is idle). */
export const HOLD_AFTER_MS = 300;
/** Links are read this many at a time, so a read made meanwhile (a scroll's window) waits for little. */
const READ_PAGE = 100;
/** The longest a page waits for the main thread to be idle before the next is read. */
const PAGE_IDLE_MS = 100;
/** Stale links are read again once no write has touched the directory for this long. */
export const READ_AGAIN_AFTER_MS = 1_000;

/** A directory's links, newest first, and the commit epoch its read began at. */
export interface HeldDirectory {
  readonly links: readonly LinkRow[];
  /** The same links with their words, as the directory's search matches them (search-scope.ts). */
  readonly searchable: readonly HeldLink[];
  readonly since: number;
}

/** Whether a node of a Dexie interval tree (or one below it) holds one of `ids`, or a range of keys. */
function holdsAny(node: IntervalTree | null | undefined, ids: ReadonlySet<string>): boolean {
  if (!node || !('from' in node)) return false;
  // A write of a single key is a one-key node; any wider range (a delete by range, a write of 50
  // rows or more, whose keys Dexie does not note) is taken to touch the directory.
  if (node.from !== node.to || typeof node.from !== 'string') return true;
  return ids.has(node.from) || holdsAny(node.l, ids) || holdsAny(node.r, ids);
}

/**
 * Whether a write (Dexie's storagemutated parts: idb://{database}/{table}/{index}) touched the
 * links held for `directoryId`: one of `ids` written or deleted (the primary key's part), or a
 * link's key in the directory's order added or removed (a link arriving in it). Without `ids`
 * (the read not done), any write to the links counts.
 */
export function touchesDirectory(
  parts: ObservabilitySet,
  dbName: string,
  directoryId: string,
  ids: ReadonlySet<string> | null,
): boolean {
  if ('all' in parts) return true;
  const table = `idb://${dbName}/saved_links/`;
  const names = Object.keys(parts).filter((part) => part.startsWith(table));
  if (names.length === 0) return false;
  if (!ids) return true;
  const primary = parts[table];
  if (primary && holdsAny(primary, ids)) return true;
  const deleted = parts[`${table}:dels`];
  if (deleted && holdsAny(deleted, ids)) return true;
  const order = parts[`${table}${WINDOW_INDEX}`];
  return !!order && rangesOverlap(order, new RangeSet(directoryStart(directoryId), directoryEnd(directoryId)));
}

/**
 * The links of the directory on screen, held (see above), or null: not read yet, stale, or a
 * directory's of HOLD_ABOVE links or fewer, or of more than `max`.
 */
export function useHeldDirectory(db: LinkboardDb, directoryId: string, max = HOLD_MAX): HeldDirectory | null {
  const [shown, setShown] = useState<{ db: LinkboardDb; directoryId: string; held: HeldDirectory } | null>(null);
  useEffect(() => {
    let live = true;
    let cancel: (() => void) | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let reading = false;
    let stale = false;
    let ids: ReadonlySet<string> | null = null;
    // Whether links are shown held (a write that finds none re-renders nothing).
    let published = false;
    const read = () => {
      timer = null;
      cancel = whenIdle(() => {
        cancel = null;
        reading = true;
        stale = false;
        const since = db.pending.currentEpoch();
        void (async () => {
          const count = await keptCount(db, 'saved_links', 'directory_id', directoryId);
          if (count <= HOLD_ABOVE || count > max) return null;
          const links: LinkRow[] = [];
          const searchable: HeldLink[] = [];
          // A read the screen no longer wants (it closed, or a write made it stale) stops at its next
          // page; each page waits for the main thread to be idle, so what the user does meanwhile (a
          // save, Add Link's duplicate check) waits behind one small page at most. A page's words
          // are taken with it: all at once, at the search box's focus, they would take 50 ms or
          // more of one task at 20,000 links.
          await forEachDirectoryPage(db, directoryId, READ_PAGE, async (rows) => {
            if (!live || stale) return false;
            links.push(...rows);
            for (const row of rows) searchable.push(holdLink(row));
            await new Promise<void>((resolve) => whenIdle(resolve, PAGE_IDLE_MS));
          });
          return { links, searchable, since };
        })().then(
          (held) => {
            reading = false;
            if (!live) return;
            if (stale) return readLater();
            ids = held && new Set(held.links.map((link) => link.id));
            published = held !== null;
            if (held) setShown({ db, directoryId, held });
          },
          () => {
            reading = false;
          },
        );
      }, READ_AGAIN_AFTER_MS);
    };
    const readLater = (after = READ_AGAIN_AFTER_MS) => {
      if (timer !== null) clearTimeout(timer);
      cancel?.();
      cancel = null;
      timer = setTimeout(read, after);
    };
    const changed = (parts: ObservabilitySet) => {
      if (!live || !touchesDirectory(parts, db.name, directoryId, reading ? null : ids)) return;
      stale = true;
      ids = null;
      if (published) setShown(null);
      published = false;
      // A read under way reads again when it ends; otherwise once the writes pause.
      if (!reading) readLater();
    };
    Dexie.on('storagemutated', changed);
    readLater(HOLD_AFTER_MS);
    return () => {
      live = false;
      Dexie.on('storagemutated').unsubscribe(changed);
      cancel?.();
      if (timer !== null) clearTimeout(timer);
      if (published) setShown(null);
    };
  }, [db, directoryId, max]);
  return shown !== null && shown.db === db && shown.directoryId === directoryId ? shown.held : null;
}
