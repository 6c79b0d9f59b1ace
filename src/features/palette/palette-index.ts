/**
 * The palette's index (docs/architecture.md, Command palette): the workspace's directories, events,
 * tasks and polls read from IndexedDB, kept as a few strings each (matcher.ts). Read at the first open and
 * kept; read again at an open after one of the three tables changed, and at once when one changes while
 * the palette is open. Links: a workspace of at most HELD_MAX links is held in memory and matched in
 * the keystroke's render (held-links.ts); a larger one's keystrokes read the few they show through
 * the token index (usePaletteLinks; src/data/queries/link-search.ts).
 */
import Dexie, { type ObservabilitySet } from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useMemo, useState } from 'react';
import type { LinkboardDb } from '../../data/db.ts';
import { matchHeld, recentLinks, searchLinks } from '../../data/queries/link-search.ts';
import type { EventRow, LinkRow } from '../../data/rows.ts';
import { searchWords } from '../../domain/search-words.ts';
import { forgetHeldLinks, useHeldLinks } from './held-links.ts';
import { clean, fold, type EntryKind, type PaletteEntry } from './matcher.ts';
import { appNow } from '../../backend/server-clock.ts';

export interface PaletteIndex {
  readonly directories: readonly PaletteEntry[];
  readonly events: readonly PaletteEntry[];
  readonly tasks: readonly PaletteEntry[];
  readonly polls: readonly PaletteEntry[];
}

export const EMPTY_INDEX: PaletteIndex = { directories: [], events: [], tasks: [], polls: [] };

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

/** A link as the palette lists it: its title (or host, or address) and its host. */
export function linkEntry(link: LinkRow): PaletteEntry {
  const host = hostOf(link.url);
  return entry(
    'link',
    link.id,
    link.title || host || link.url,
    host,
    `${link.url} ${link.description ?? ''}`,
    link.url,
  );
}

/**
 * The links the palette lists for `query`: the first `limit` matches through the token index
 * (docs/product.md, Command palette), or with nothing typed the `count` most recently changed.
 */
export async function readPaletteLinks(
  db: LinkboardDb,
  query: string,
  limit: number,
  count: number,
): Promise<PaletteEntry[]> {
  const words = searchWords(query);
  if (words.length > 0) return (await searchLinks(db, words, limit)).rows.map(linkEntry);
  const links = (await recentLinks(db, count)).map(linkEntry);
  keptRecent = { db, links };
  return links;
}

/** The recent links last read (shown at once by the next open, while they are read again). */
let keptRecent: { db: LinkboardDb; links: readonly PaletteEntry[] } | null = null;

/**
 * The palette's links for `query` while `open`, and whether the workspace's links are held: then
 * matched in the keystroke's render (held-links.ts), else a live query (a link added or changed while it
 * is open shows). Until a keystroke's read answers, the last one's links stay; an open shows the
 * recent links of the last open at once, while they are read again.
 */
export function usePaletteLinks(
  db: LinkboardDb,
  open: boolean,
  query: string,
  limit: number,
  recent: number,
): { links: readonly PaletteEntry[]; held: boolean } {
  const words = useMemo(() => searchWords(query), [query]);
  const key = words.join(' ');
  const held = useHeldLinks(db, open);
  const matched = useMemo(
    () => (held && words.length > 0 ? matchHeld(held, words, limit).rows.map(linkEntry) : null),
    [held, words, limit],
  );
  const links = useLiveQuery(
    () => (open && matched === null ? readPaletteLinks(db, key, limit, recent) : CLOSED),
    [db, open, matched === null, key, limit, recent],
  );
  const found = useMemo(() => {
    if (matched !== null) return matched;
    if (links !== undefined && links !== CLOSED) return links;
    return key === '' && keptRecent?.db === db ? keptRecent.links : NO_LINKS;
  }, [matched, links, key, db]);
  return { links: found, held: held !== null };
}

const NO_LINKS: readonly PaletteEntry[] = [];
/** What the live query answers while the palette is closed (nothing is read). */
const CLOSED: readonly PaletteEntry[] = [];

/** Reads the index (in one read transaction, so its parts agree). */
export async function readPaletteIndex(db: LinkboardDb, now = appNow()): Promise<PaletteIndex> {
  const [directories, events, polls] = await db.transaction(
    'r',
    [db.link_directories, db.calendar_events, db.voting_posts],
    () => Promise.all([db.link_directories.toArray(), db.calendar_events.toArray(), db.voting_posts.toArray()]),
  );
  const items = oneOfEachSeries(events, now.toISOString());
  return {
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

const TABLES = ['link_directories', 'calendar_events', 'voting_posts'] as const;

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
  keptRecent = null;
  forgetHeldLinks();
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
