/**
 * A search of the links through the token index (link-index.ts; docs/product.md, Links screen and
 * Command palette): every word typed must begin a word of the link. The index is read over the
 * range of the words the leading word (the longest) begins, in its order: the links having that
 * exact word first, newest first, then those having a longer word. A keystroke reads only about as
 * many entries as it shows, never the links: the first `limit` matches, and whether more match.
 * The other words are checked on the rows read; a read that finds too few reads again, four times
 * as far, up to SCAN_MAX entries (then more may match: the screen says so).
 */
import type { LinkboardDb } from '../db.ts';
import { prefixKey } from '../link-index.ts';
import type { LinkRow } from '../rows.ts';
import { entryWord, leadingWord, matchesWords, RANGE_END } from '../../domain/search-words.ts';

/** The most index entries one search reads. */
export const SCAN_MAX = 4096;

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

/**
 * The first `limit` links matching `words` (searchWords of the query; at least one), anywhere or
 * in one directory, in the index's order.
 */
export async function searchLinks(
  db: LinkboardDb,
  words: readonly string[],
  limit: number,
  directoryId: string | null = null,
): Promise<LinkMatches> {
  const leading = leadingWord(words);
  const others = words.filter((word) => word !== leading);
  const lower = prefixKey(leading, directoryId);
  const index = directoryId === null ? '_words' : '_dirWords';
  // A link is in the range once for each of its words the leading word begins: a little more is read.
  let scan = Math.min(SCAN_MAX, limit + Math.max(8, limit >> 2));
  for (;;) {
    const read = await db.saved_links
      .where(index)
      .between(lower, lower + RANGE_END, true, true)
      .limit(scan)
      .toArray();
    const seen = new Set<string>();
    const rows: LinkRow[] = [];
    for (const row of read) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      if (directoryId !== null && row.directory_id !== directoryId) continue;
      if (others.length > 0 && !matchesWords(storedWords(row), others)) continue;
      rows.push(row);
      if (rows.length > limit) return { rows: rows.slice(0, limit), more: true };
    }
    // The range ended inside this read: every match is here.
    if (read.length < scan) return { rows, more: false };
    if (scan >= SCAN_MAX) return { rows, more: true };
    scan = Math.min(SCAN_MAX, scan * 4);
  }
}

/** The `count` most recently changed links (through the updated_at index). */
export async function recentLinks(db: LinkboardDb, count: number): Promise<LinkRow[]> {
  return db.saved_links.orderBy('updated_at').reverse().limit(count).toArray();
}
