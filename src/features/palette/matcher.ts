/**
 * The command palette's search (docs/product.md, Command palette): every word typed must be found in an
 * item's title or in its other text (address, host, description), case- and accent-insensitively. Ranked:
 * the title starting with the word, then a word of the title starting with it, then anywhere in the
 * title, then the same in the other text; ties keep the index's order (the most recently changed first).
 * Plain functions over a compact index, so a keystroke over 11,000 items costs a few milliseconds
 * (docs/bench.md, palette).
 */

import { clean, fold } from '../../domain/search-words.ts';

export { clean, fold };

export type EntryKind = 'link' | 'directory' | 'event' | 'task' | 'poll';

export interface PaletteEntry {
  readonly kind: EntryKind;
  readonly id: string;
  /** As shown (cleaned of characters that cannot be drawn). */
  readonly title: string;
  /** The second line: a link's host, a directory's description, an event's date. */
  readonly detail: string;
  /** The folded title the words are matched against first. */
  readonly key: string;
  /** The folded rest: address, host, description. */
  readonly rest: string;
  /** Where the item opens: a link's address, a directory's or poll's directory, an event's id. */
  readonly target: string;
}

/** The words of a query, folded; none for an empty or blank one. */
export function queryWords(query: string): string[] {
  return fold(query).split(/\s+/).filter(Boolean);
}

const isWordChar = (code: number) =>
  (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || code > 127 || code === 95;

/** Where `word` is found in `text`: 0 at its start, 1 at a word's start, 2 inside a word, -1 nowhere. */
function place(text: string, word: string): number {
  let at = text.indexOf(word);
  if (at < 0) return -1;
  if (at === 0) return 0;
  let best = 2;
  while (at >= 0) {
    if (!isWordChar(text.charCodeAt(at - 1))) {
      best = 1;
      break;
    }
    at = text.indexOf(word, at + 1);
  }
  return best;
}

/**
 * An entry's rank for the words (lower is better), or -1 when one word is missing. `wordStarts`:
 * a word must start where a word of the entry starts (the actions: 'eat' does not find 'Create').
 */
export function rank(entry: Pick<PaletteEntry, 'key' | 'rest'>, words: readonly string[], wordStarts = false): number {
  const worst = wordStarts ? 1 : 2;
  let score = 0;
  for (const word of words) {
    const inTitle = place(entry.key, word);
    if (inTitle >= 0 && inTitle <= worst) {
      score += inTitle;
      continue;
    }
    const inRest = place(entry.rest, word);
    if (inRest < 0 || inRest > worst) return -1;
    score += 3 + inRest;
  }
  return score;
}

/**
 * The best `limit` entries for the words, best first (ties in the entries' order). No words: the
 * first `limit` entries. One pass, keeping only the best few (no sort of every match).
 */
export function search<E extends Pick<PaletteEntry, 'key' | 'rest'>>(
  entries: readonly E[],
  words: readonly string[],
  limit: number,
  wordStarts = false,
): E[] {
  if (words.length === 0) return entries.slice(0, limit);
  const best: E[] = [];
  const scores: number[] = [];
  for (const entry of entries) {
    const score = rank(entry, words, wordStarts);
    if (score < 0) continue;
    if (best.length === limit && score >= scores[limit - 1]!) continue;
    let at = best.length;
    while (at > 0 && scores[at - 1]! > score) at--;
    best.splice(at, 0, entry);
    scores.splice(at, 0, score);
    if (best.length > limit) {
      best.pop();
      scores.pop();
    }
  }
  return best;
}
