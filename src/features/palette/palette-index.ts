/**
 * The palette's index (docs/architecture.md, Command palette): the workspace's links, directories, events,
 * tasks and polls read from IndexedDB, kept as a few strings each (matcher.ts). Read at the first open and
 * kept; read again at an open after one of the four tables changed, and at once when one changes while
 * the palette is open.
 */
import Dexie, { type ObservabilitySet } from 'dexie';
import { useEffect, useState } from 'react';
import type { LinkboardDb } from '../../data/db.ts';
import type { EventRow } from '../../data/rows.ts';
import { clean, fold, type EntryKind, type PaletteEntry } from './matcher.ts';
import { appNow } from '../../backend/server-clock.ts';

export interface PaletteIndex {
  readonly links: readonly PaletteEntry[];
  readonly directories: readonly PaletteEntry[];
  readonly events: readonly PaletteEntry[];
  readonly tasks: readonly PaletteEntry[];
  readonly polls: readonly PaletteEntry[];
}

export const EMPTY_INDEX: PaletteIndex = { links: [], directories: [], events: [], tasks: [], polls: [] };

/** A link's host, as shown under its title ('example.com'), or '' for an address that does not parse. */
export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}

function entry(kind: EntryKind, id: string, title: string, detail: string, rest: string, target: string) {
  const shown = clean(title).trim() || '(untitled)';
  return { kind, id, title: shown, detail: clean(detail), key: fold(shown), rest: fold(rest), target };
}

const newestFirst = <T extends { updated_at: string }>(rows: T[]) =>
  rows.sort((a, b) => (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : 0));

/**
 * One item per recurring series: its next occurrence from `now`, or its last one when all are past.
 * Single items as they are; the soonest first.
 */
function oneOfEachSeries(rows: EventRow[], now: string): EventRow[] {
  const bySeries = new Map<string, EventRow>();
  const single: EventRow[] = [];
  for (const row of rows) {
    if (!row.series_id) {
      single.push(row);
      continue;
    }
    const kept = bySeries.get(row.series_id);
    const at = row.starts_at ?? '';
    const keptAt = kept?.starts_at ?? '';
    const better = !kept || (at >= now ? keptAt < now || at < keptAt : keptAt < now && at > keptAt);
    if (better) bySeries.set(row.series_id, row);
  }
  return newestFirst([...single, ...bySeries.values()]);
}

/** Reads the index (in one read transaction, so its parts agree). */
export async function readPaletteIndex(db: LinkboardDb, now = appNow()): Promise<PaletteIndex> {
  const [links, directories, events, polls] = await db.transaction(
    'r',
    [db.saved_links, db.link_directories, db.calendar_events, db.voting_posts],
    () =>
      Promise.all([
        db.saved_links.toArray(),
        db.link_directories.toArray(),
        db.calendar_events.toArray(),
        db.voting_posts.toArray(),
      ]),
  );
  const items = oneOfEachSeries(events, now.toISOString());
  return {
    links: newestFirst(links).map((link) => {
      const host = hostOf(link.url);
      return entry(
        'link',
        link.id,
        link.title || host || link.url,
        host,
        `${link.url} ${link.description ?? ''}`,
        link.url,
      );
    }),
    directories: newestFirst(directories).map((dir) =>
      entry('directory', dir.id, dir.name, dir.description ?? '', dir.description ?? '', dir.id),
    ),
    events: items
      .filter((item) => !item.is_task)
      .map((item) => entry('event', item.id, item.title, item.starts_at ?? '', item.description ?? '', item.id)),
    tasks: items
      .filter((item) => item.is_task)
      .map((item) => entry('task', item.id, item.title, item.starts_at ?? '', item.description ?? '', item.id)),
    polls: newestFirst(polls)
      .filter((poll) => poll.is_active !== false)
      .map((poll) =>
        entry('poll', poll.id, poll.title, poll.description ?? '', poll.description ?? '', poll.directory_id ?? ''),
      ),
  };
}

const TABLES = ['saved_links', 'link_directories', 'calendar_events', 'voting_posts'] as const;

/** The last index read, and whether a write to its tables came after the read began. */
let kept: { db: LinkboardDb; index: PaletteIndex; stale: boolean; read: Promise<unknown> } | null = null;
const watchers = new Set<() => void>();

/** Whether a write (Dexie's storagemutated parts: idb://{database}/{table}/{index}) touched the index's tables. */
const touches = (db: LinkboardDb, parts: ObservabilitySet) =>
  Object.keys(parts).some((part) => TABLES.some((table) => part.startsWith(`idb://${db.name}/${table}/`)));

let listening = false;
function listen(): void {
  if (listening) return;
  listening = true;
  // Local writes, and (through Dexie's broadcast) other tabs' and the service worker's.
  Dexie.on('storagemutated', (parts: ObservabilitySet) => {
    if (!kept || !touches(kept.db, parts)) return;
    kept.stale = true;
    for (const watcher of watchers) watcher();
  });
}

/** Forgets the kept index (tests; a signed-out user's database). */
export function forgetPaletteIndex(): void {
  kept = null;
}

/**
 * The index while `open`: the kept one at once (the last read, until a read after a change replaces it),
 * read when there is none or the tables changed since, and again whenever they change while open.
 * Nothing is read while closed.
 */
export function usePaletteIndex(db: LinkboardDb, open: boolean): PaletteIndex {
  const [, setReads] = useState(0);
  useEffect(() => {
    if (!open) return;
    listen();
    let live = true;
    let reading = false;
    const read = () => {
      if (reading) return;
      reading = true;
      const previous = kept?.db === db ? kept.index : EMPTY_INDEX;
      const entry = { db, index: previous, stale: false, read: Promise.resolve() as Promise<unknown> };
      kept = entry;
      entry.read = readPaletteIndex(db).then(
        (index) => {
          entry.index = index;
          reading = false;
          if (live) setReads((reads) => reads + 1);
          if (live && entry.stale) read();
        },
        () => {
          entry.stale = true;
          reading = false;
        },
      );
    };
    const refresh = () => {
      if (kept?.db === db && kept.stale) read();
    };
    if (!kept || kept.db !== db || kept.stale) read();
    // A read begun at an earlier open may still be running: show its index when it ends.
    else void kept.read.then(() => live && setReads((reads) => reads + 1));
    watchers.add(refresh);
    return () => {
      live = false;
      watchers.delete(refresh);
    };
  }, [db, open]);
  return kept?.db === db ? kept.index : EMPTY_INDEX;
}
