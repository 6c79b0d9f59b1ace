/**
 * A search of the links through the token index (link-index.ts; docs/product.md, Links screen and
 * Command palette): every word typed must begin a word of the link. The index is read over the
 * range of the words the leading word (the longest) begins, in its order: the links having that
 * exact word first, newest first, then those having a longer word. A keystroke reads about as many
 * entries as it shows, never all the links: the first `limit` matches, and whether more match.
 * The other words are checked on the rows read; a read that finds too few reads again, four times
 * as far, up to a cap (then more may match: the screen says so).
 *
 * Anywhere (the palette): the rows are read in index order. In one directory (the Links screen):
 * only the index's keys (the links' ids) are read, checked against the directory's ids (read once
 * while the search is used), and the rows of the first matches fetched.
 */
import type { LinkboardDb } from '../db.ts';
import type { LinkRow } from '../rows.ts';
import { directoryEnd, directoryStart, WINDOW_INDEX } from './link-anchors.ts';
import { entryWord, leadingWord, matchesWords, newestKey, RANGE_END, rowWords } from '../../domain/search-words.ts';
import { backlogStream, firstEntry, mergeStreams, ownEntries, type Found } from './word-streams.ts';

/** The most index entries a search anywhere reads (rows). */
export const SCAN_MAX = 4096;
/** The most index keys a directory's search reads (ids only, a few bytes each). */
export const KEY_SCAN_MAX = 32_768;
/** A directory's matches' rows are fetched this many at a time, while the other words rule some out. */
const FETCH_PAGE = 256;

export interface LinkMatches {
  /** The first matches, in the index's order. */
  rows: LinkRow[];
  /** Whether more links may match than `rows` holds. */
  more: boolean;
}

/** The words a stored link is found by (its `_words` entries'). */
export function storedWords(row: LinkRow): string[] {
  const entries: unknown = Reflect.get(row, '_words');
  return Array.isArray(entries) ? entries.map((entry) => entryWord(String(entry))) : [];
}

/** A link held in memory for a search: its words as the token index holds them, and its newest-first key. */
export interface HeldLink {
  readonly row: LinkRow;
  readonly words: readonly string[];
  readonly newest: string;
}

/** A stored link held for matching in memory (its `_words`; a row written without them, its words computed). */
export function holdLink(row: LinkRow): HeldLink {
  const words = Reflect.has(row, '_words') ? storedWords(row) : rowWords(row);
  return { row, words, newest: newestKey(row.created_at) };
}

/** A held link with the word that places it (the smallest its search's leading word begins). */
interface Placed {
  link: HeldLink;
  word: string;
}

/** Whether `a` comes before `b` in the index's order: its word's entry (word, then newest), then its id. */
function before(a: Placed, b: Placed): boolean {
  if (a.word !== b.word) return a.word < b.word;
  if (a.link.newest !== b.link.newest) return a.link.newest < b.link.newest;
  return a.link.row.id < b.link.row.id;
}

/**
 * The first `limit` of `held` matching `words` (searchWords of the query; at least one), in the
 * order the token index gives (searchOrder, equal ones by id), and whether more match: what
 * searchLinks reads, computed over links in memory in one pass that keeps only the first few.
 * A word is below every entry it begins (the separator sorts below letters and digits), so
 * comparing a link's word, then its newest key, is comparing its entries.
 */
export function matchHeld(held: readonly HeldLink[], words: readonly string[], limit: number): LinkMatches {
  const leading = leadingWord(words);
  const others = words.filter((word) => word !== leading);
  const first: Placed[] = [];
  for (const link of held) {
    let word: string | null = null;
    for (const candidate of link.words) {
      if (candidate.startsWith(leading) && (word === null || candidate < word)) word = candidate;
    }
    if (word === null) continue;
    if (others.length > 0 && !matchesWords(link.words, others)) continue;
    const placed = { link, word };
    if (first.length > limit && !before(placed, first[limit]!)) continue;
    let low = 0;
    let high = first.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (before(first[middle]!, placed)) low = middle + 1;
      else high = middle;
    }
    first.splice(low, 0, placed);
    if (first.length > limit + 1) first.pop();
  }
  return { rows: first.slice(0, limit).map((placed) => placed.link.row), more: first.length > limit };
}

/** The index's range of the words `leading` begins. */
const range = (db: LinkboardDb, leading: string) =>
  db.saved_links.where('_words').between(leading, leading + RANGE_END, true, true);

/** The first `limit` links anywhere matching `words` (searchWords of the query; at least one), in the index's order. */
export async function searchLinks(db: LinkboardDb, words: readonly string[], limit: number): Promise<LinkMatches> {
  const leading = leadingWord(words);
  const others = words.filter((word) => word !== leading);
  // A link is in the range once for each of its words the leading word begins: a little more is read.
  let scan = Math.min(SCAN_MAX, limit + Math.max(8, limit >> 2));
  for (;;) {
    const [read, backlog] = await Promise.all([
      range(db, leading).limit(scan).toArray(),
      backlogStream(db, leading, words, scan),
    ]);
    const seen = new Set<string>();
    const placed: Found[] = [];
    for (const row of read) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      placed.push({ entry: firstEntry(ownEntries(row), leading), row });
    }
    // The range ended inside this read: every match of this index is here; else up to its last link.
    const cut = read.length < scan ? null : (placed.at(-1) ?? null);
    const mine = others.length > 0 ? placed.filter(({ row }) => matchesWords(storedWords(row), others)) : placed;
    const merged = mergeStreams(mine, cut, backlog.placed, backlog.cut);
    if (merged.rows.length > limit) return { rows: merged.rows.slice(0, limit), more: true };
    if (!merged.cut) return { rows: merged.rows, more: false };
    if (scan >= SCAN_MAX) return { rows: merged.rows, more: true };
    scan = Math.min(SCAN_MAX, scan * 4);
  }
}

/**
 * The first `limit` links of a directory (its links' ids: `ids`) matching `words`, in the index's
 * order: the range's keys read, those of the directory kept, their rows fetched a page at a time.
 */
export async function searchDirectory(
  db: LinkboardDb,
  words: readonly string[],
  limit: number,
  ids: ReadonlySet<string>,
): Promise<LinkMatches> {
  const leading = leadingWord(words);
  const others = words.filter((word) => word !== leading);
  let scan = Math.min(KEY_SCAN_MAX, 4 * (limit + 1));
  for (;;) {
    const [keys, backlog] = await Promise.all([
      range(db, leading).limit(scan).primaryKeys() as Promise<string[]>,
      backlogStream(db, leading, words, scan, (id) => ids.has(id)),
    ]);
    const seen = new Set<string>();
    // The directory's links in the range's order, and where the last one wanted is in it.
    const mine: string[] = [];
    let through = 0;
    let stopped = false;
    for (let at = 0; at < keys.length; at += 1) {
      const key = keys[at]!;
      if (seen.has(key)) continue;
      seen.add(key);
      if (!ids.has(key)) continue;
      // With one word every one of the directory's is a match: only the first limit + 1 are fetched.
      if (others.length === 0 && mine.length > limit) {
        stopped = true;
        break;
      }
      mine.push(key);
      through = at + 1;
    }
    const ended = keys.length < scan && !stopped;
    const placed = (await fetchRows(db, leading, mine, through)).map((row) => ({
      entry: firstEntry(ownEntries(row), leading),
      row,
    }));
    // Read whole, this index's matches are all here; else exact up to the last of the directory's read.
    const cut = ended ? null : (placed.at(-1) ?? { entry: '', row: { id: '' } as LinkRow });
    const matching = others.length > 0 ? placed.filter(({ row }) => matchesWords(storedWords(row), others)) : placed;
    const merged = mergeStreams(matching, cut, backlog.placed, backlog.cut);
    if (merged.rows.length > limit) return { rows: merged.rows.slice(0, limit), more: true };
    if (!merged.cut) return { rows: merged.rows, more: false };
    if (scan >= KEY_SCAN_MAX) return { rows: merged.rows, more: true };
    scan = Math.min(KEY_SCAN_MAX, scan * 4);
  }
}

/**
 * The rows of `wanted` (ids in the range's order, the last `through` entries into it): one read
 * of the range's first `through` rows when the directory's are at least an eighth of them (one
 * request), else one get per row (Chromium answers each in a fraction of a millisecond).
 */
async function fetchRows(db: LinkboardDb, leading: string, wanted: string[], through: number): Promise<LinkRow[]> {
  if (wanted.length === 0) return [];
  if (through <= 8 * wanted.length) {
    const want = new Set(wanted);
    const rows: LinkRow[] = [];
    for (const row of await range(db, leading).limit(through).toArray()) {
      if (!want.delete(row.id)) continue;
      rows.push(row);
    }
    return rows;
  }
  const rows: LinkRow[] = [];
  for (let at = 0; at < wanted.length; at += FETCH_PAGE) {
    for (const row of await db.saved_links.bulkGet(wanted.slice(at, at + FETCH_PAGE))) if (row) rows.push(row);
  }
  return rows;
}

/** A directory's links are read for its search this many at a time (each read's rows are copied on the main thread). */
const SCOPE_PAGE = 1_000;

/**
 * A directory's links, newest first, handed to `visit` `page` at a time (a smaller page holds up a
 * read made meanwhile, a scroll's window, for less) until `visit` answers false; the next page is
 * read once what `visit` answers has settled.
 */
export async function forEachDirectoryPage(
  db: LinkboardDb,
  directoryId: string,
  page: number,
  visit: (rows: readonly LinkRow[]) => boolean | void | Promise<boolean | void>,
): Promise<void> {
  let upper: unknown[] = directoryEnd(directoryId);
  for (;;) {
    const rows = await db.saved_links
      .where(WINDOW_INDEX)
      .between(directoryStart(directoryId), upper, true, false)
      .reverse()
      .limit(page)
      .toArray();
    if ((await visit(rows)) === false) return;
    const last = rows.at(-1);
    if (!last || rows.length < page) return;
    upper = [directoryId, last.created_at, last.id];
  }
}

/** A directory's links with their words (holdLink), newest first, read a page at a time. */
export async function heldLinksOf(db: LinkboardDb, directoryId: string): Promise<HeldLink[]> {
  const held: HeldLink[] = [];
  await forEachDirectoryPage(db, directoryId, SCOPE_PAGE, (rows) => {
    for (const row of rows) held.push(holdLink(row));
  });
  return held;
}

/** The ids of a directory's links (read once while its search is used; the index's keys only). */
export async function directoryLinkIds(db: LinkboardDb, directoryId: string): Promise<Set<string>> {
  const keys = await db.saved_links
    .where(WINDOW_INDEX)
    .between(directoryStart(directoryId), directoryEnd(directoryId), true, false)
    .primaryKeys();
  return new Set(keys);
}

/** The `count` most recently changed links (through the updated_at index). */
export async function recentLinks(db: LinkboardDb, count: number): Promise<LinkRow[]> {
  return db.saved_links.orderBy('updated_at').reverse().limit(count).toArray();
}
