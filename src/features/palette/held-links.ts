/**
 * The palette's links held in memory (docs/architecture.md, Command palette): in a workspace of at
 * most HELD_MAX links, every link is read once after an open (when the browser is idle) and kept
 * with its words, so a keystroke matches them in its own render (link-search.ts, matchHeld) instead
 * of waiting for a read of the token index. A change to the links lets them go: the next open (or
 * the open palette at once) reads them again, and until then the token index answers. A larger
 * workspace is searched through the token index only (the same order: docs/product.md, Command
 * palette).
 */
import Dexie, { type ObservabilitySet } from 'dexie';
import { useEffect, useState } from 'react';
import { keptCounts } from '../../data/counts.ts';
import type { LinkboardDb } from '../../data/db.ts';
import { forEachPageByKey } from '../../data/pages-by-key.ts';
import { holdLink, type HeldLink } from '../../data/queries/link-search.ts';
import { whenIdle } from '../../timing/when-idle.ts';

/** The most links a workspace may have for the palette to hold them (about 10 MB of rows). */
export const HELD_MAX = 10_000;

interface Held {
  db: LinkboardDb;
  /** The links, or null for a workspace of more than HELD_MAX (or while the first read runs). */
  links: readonly HeldLink[] | null;
  /** A write to the links came after the read began: not to be used, read again. */
  stale: boolean;
  reading: boolean;
}

let held: Held | null = null;
const watchers = new Set<() => void>();

/** Links are read this many at a time: each read's rows are copied on the main thread, a long task when large. */
const READ_PAGE = 500;

/**
 * Every link of the workspace held, or null when there are more than `max` (the kept counts' sum).
 * Read in pages by id, so no one task holds up a keystroke or a paint; a write meanwhile makes the
 * caller read them again (the storagemutated listener).
 */
export async function readHeldLinks(db: LinkboardDb, max = HELD_MAX): Promise<HeldLink[] | null> {
  let total = 0;
  for (const n of (await keptCounts(db, 'saved_links', 'directory_id')).values()) total += n;
  if (total > max) return null;
  const links: HeldLink[] = [];
  await forEachPageByKey(db.saved_links, READ_PAGE, (rows) => {
    for (const row of rows) links.push(holdLink(row));
  });
  return links;
}

let listening = false;
function listen(): void {
  if (listening) return;
  listening = true;
  // Local writes, and (through Dexie's broadcast) other tabs' and the service worker's.
  Dexie.on('storagemutated', (parts: ObservabilitySet) => {
    if (!held || !Object.keys(parts).some((part) => part.startsWith(`idb://${held!.db.name}/saved_links/`))) return;
    held.stale = true;
    for (const watcher of watchers) watcher();
  });
}

/** Forgets the held links (tests; a signed-out user's database). */
export function forgetHeldLinks(): void {
  held = null;
}

/**
 * The workspace's links held while `open`, or null (more than HELD_MAX, not read yet, or changed
 * since the read: the caller reads the token index meanwhile). Read when the browser is next idle
 * after an open that finds none held for `db` or finds them stale, and again when they change
 * while open.
 */
export function useHeldLinks(db: LinkboardDb, open: boolean): readonly HeldLink[] | null {
  const [, setReads] = useState(0);
  useEffect(() => {
    if (!open) return;
    listen();
    let live = true;
    // A read still waiting for the browser to be idle when the palette closes is not made.
    let waiting: { entry: Held; cancel: () => void } | null = null;
    const read = () => {
      if (held?.db === db && (held.reading || !held.stale)) return;
      const entry: Held = { db, links: null, stale: false, reading: true };
      held = entry;
      const cancel = whenIdle(() => {
        waiting = null;
        readHeldLinks(db).then(
          (links) => {
            entry.links = links;
            entry.reading = false;
            if (live) setReads((reads) => reads + 1);
            if (live && entry.stale) read();
          },
          () => {
            entry.reading = false;
            entry.stale = true;
          },
        );
      }, 1_000);
      waiting = { entry, cancel };
    };
    const changed = () => {
      if (live) setReads((reads) => reads + 1);
      read();
    };
    if (held?.db !== db || held.stale) read();
    watchers.add(changed);
    return () => {
      live = false;
      watchers.delete(changed);
      if (!waiting) return;
      waiting.cancel();
      if (held === waiting.entry) held = null;
    };
  }, [db, open]);
  return held?.db === db && !held.stale ? held.links : null;
}
