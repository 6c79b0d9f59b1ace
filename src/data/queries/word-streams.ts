/**
 * A search's two streams of matches, merged in the token index's order (link-search.ts): the
 * links found through their own `_words`, and those a pull from scratch stored without them, found
 * through the words the backlog's pass wrote (`link_words`, word-backlog.ts). Each stream is read
 * over the leading word's range up to a number of entries; a stream cut short is exact only up to
 * the last link it read, so the merged list is too.
 */
import type { LinkboardDb } from '../db.ts';
import type { LinkRow } from '../rows.ts';
import { RANGE_END, matchesWords, rowWords } from '../../domain/search-words.ts';
import { splitLinkWordEntry } from '../word-backlog.ts';

/** A link with the entry that places it: the smallest of its entries the leading word begins. */
export interface Found {
  entry: string;
  row: LinkRow;
}

/** Where a stream cut short stops being exact (its last link's place), or null when it was read whole. */
export type Cut = Found | null;

/** The smallest of `entries` that `leading` begins ('' when none does). */
export function firstEntry(entries: readonly string[], leading: string): string {
  let first: string | null = null;
  for (const entry of entries) if (entry.startsWith(leading) && (first === null || entry < first)) first = entry;
  return first ?? '';
}

/** Whether `a` comes before `b` in the index's order (its entry, then its id). */
export function foundBefore(a: Found, b: Found): boolean {
  if (a.entry !== b.entry) return a.entry < b.entry;
  return a.row.id < b.row.id;
}

/** The entries of a stored link (its `_words`), or none. */
export function ownEntries(row: LinkRow): string[] {
  const entries: unknown = Reflect.get(row, '_words');
  return Array.isArray(entries) ? entries.map(String) : [];
}

/**
 * The links of the backlog's words matching `words` (searchWords of the query) whose leading word
 * is `leading`, placed, among the first `scan` entries of its range (the index's keys alone: each
 * names its link); `keep` says which ids count (a directory's). A link counts while its row has no
 * `_words` of its own and its words match.
 */
export async function backlogStream(
  db: LinkboardDb,
  leading: string,
  words: readonly string[],
  scan: number,
  keep: (id: string) => boolean = () => true,
): Promise<{ placed: Found[]; cut: Cut }> {
  const keys = (await db.link_words
    .where('words')
    .between(leading, leading + RANGE_END, true, true)
    .limit(scan)
    .keys()) as string[];
  if (keys.length === 0) return { placed: [], cut: null };
  const seen = new Set<string>();
  const found: { entry: string; id: string }[] = [];
  for (const key of keys) {
    const item = splitLinkWordEntry(key);
    if (seen.has(item.id)) continue;
    seen.add(item.id);
    found.push(item);
  }
  const wanted = found.filter((item) => keep(item.id));
  const rows = await db.saved_links.bulkGet(wanted.map((item) => item.id));
  const placed: Found[] = [];
  wanted.forEach((item, i) => {
    const row = rows[i];
    if (!row || Reflect.has(row, '_words') || !matchesWords(rowWords(row), words)) return;
    placed.push({ entry: item.entry, row });
  });
  // Read short, the stream is exact up to its last key read (the entries sort by link id within an entry).
  const last = splitLinkWordEntry(keys.at(-1)!);
  const cut: Cut = keys.length < scan ? null : { entry: last.entry, row: { id: last.id } as LinkRow };
  return { placed, cut };
}

/**
 * The two streams merged in the index's order, as far as both are exact (up to the first cut), and
 * whether either was cut short (more may match beyond).
 */
export function mergeStreams(
  a: readonly Found[],
  aCut: Cut,
  b: readonly Found[],
  bCut: Cut,
): { rows: LinkRow[]; cut: boolean } {
  if (b.length === 0 && bCut === null) return { rows: a.map((item) => item.row), cut: aCut !== null };
  const bound = aCut && bCut ? (foundBefore(aCut, bCut) ? aCut : bCut) : (aCut ?? bCut);
  const merged = [...a, ...b]
    .filter((item) => bound === null || !foundBefore(bound, item))
    .sort((x, y) => (foundBefore(x, y) ? -1 : foundBefore(y, x) ? 1 : 0));
  return { rows: merged.map((item) => item.row), cut: bound !== null };
}
