/**
 * Words as the searches read them (docs/product.md, Links screen and Command palette): text folded
 * (controls and lone surrogates removed, lower case, accents dropped) and split on everything that
 * is not a letter or a digit. A link is found by the words of its title, tags, address (host and
 * path) and notes: every word typed must begin one of them. These rules are the token index's
 * (src/data/link-index.ts): what it stores and what the list's order is are computed here.
 */
import { plainParts } from './plain-url.ts';

/** Lone surrogates (half of a character), which cannot be drawn or folded. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// eslint-disable-next-line no-control-regex -- NUL and other controls are what this removes.
const CONTROLS = /[\u0000-\u001F\u007F]/g;
const MARKS = /\p{M}+/gu;
const NOT_WORD = /[^\p{L}\p{N}]+/u;

/** Text fit to show: controls (NUL among them) and lone surrogates become spaces. */
export function clean(text: string): string {
  return text.replace(CONTROLS, ' ').replace(LONE_SURROGATE, '\uFFFD');
}

/** Text as the searches compare it: cleaned, lower-case, without accents ('Éclair' and 'eclair' match). */
export function fold(text: string): string {
  return clean(text).normalize('NFD').replace(MARKS, '').toLowerCase();
}

/**
 * At most this many words of a link are indexed (each costs an index entry on every put, and so
 * on every pulled row of a first sync): its title's first, then its tags', address's and notes'.
 */
export const MAX_WORDS = 16;
/** A word is indexed and matched by its first this many characters. */
export const MAX_WORD_LENGTH = 32;
/** Parts of most addresses, not words of one: 'https://www.' or '.com' would find most links. */
const ADDRESS_NOISE = new Set(['http', 'https', 'www', 'com', 'org', 'net', 'html', 'htm', 'php']);

/** Printable ASCII, whose folding is lower case alone and whose letters and digits are a-z and 0-9. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const NOT_ASCII_WORD = /[^a-z0-9]+/;

/** The folded words of a text, each cut to MAX_WORD_LENGTH ('Crème-brûlée 2' → creme, brulee, 2). */
export function wordsOf(text: string): string[] {
  const words: string[] = [];
  // Most text is printable ASCII: the same words without Unicode normalisation and classes.
  const parts = PRINTABLE_ASCII.test(text) ? text.toLowerCase().split(NOT_ASCII_WORD) : fold(text).split(NOT_WORD);
  for (const word of parts) {
    if (word !== '') words.push(word.length > MAX_WORD_LENGTH ? word.slice(0, MAX_WORD_LENGTH) : word);
  }
  return words;
}

/** A URL's words: its host's labels and its path's segments (decoded), not its scheme, query or fragment. */
function addressWords(url: string): string[] {
  // A plain address (no escape, query or fragment) is read without the URL parser.
  const plain = plainParts(url);
  if (plain) return [...wordsOf(plain.host), ...wordsOf(plain.path)].filter((word) => !ADDRESS_NOISE.has(word));
  let host = '';
  let path = url;
  try {
    const parsed = new URL(url);
    host = parsed.hostname;
    path = parsed.pathname;
    try {
      path = decodeURIComponent(path);
    } catch {
      // A malformed escape: the path as written.
    }
  } catch {
    // Not an address a browser reads: its words as they are.
  }
  return [...wordsOf(host), ...wordsOf(path)].filter((word) => !ADDRESS_NOISE.has(word));
}

/** What a link's words are read from (fields as the server sends them; a damaged one is skipped). */
export interface WordSource {
  title?: unknown;
  url?: unknown;
  tags?: unknown;
  notes?: unknown;
}

/**
 * A link's words, in the order they are kept: the title's, the tags', the address's (host and
 * path) and the notes', each once, at most MAX_WORDS.
 */
export function linkWords(link: WordSource): string[] {
  const words = new Set<string>();
  const add = (list: readonly string[]) => {
    for (const word of list) {
      if (words.size >= MAX_WORDS) return;
      words.add(word);
    }
  };
  if (typeof link.title === 'string') add(wordsOf(link.title));
  if (Array.isArray(link.tags))
    for (const tag of link.tags as unknown[]) if (typeof tag === 'string') add(wordsOf(tag));
  if (typeof link.url === 'string') add(addressWords(link.url));
  if (typeof link.notes === 'string') add(wordsOf(link.notes));
  return [...words];
}

/**
 * The words of a search: every one must begin a word of the link (the last one typed may be
 * incomplete). An address's noise ('https', 'www', 'com'…) is left out when other words remain
 * (a pasted address).
 */
export function searchWords(query: string): string[] {
  const words = [...new Set(wordsOf(query))];
  const meaningful = words.filter((word) => !ADDRESS_NOISE.has(word));
  return meaningful.length > 0 ? meaningful : words;
}

/** The word a search reads the index by: the longest (the fewest links begin it), the first of equals. */
export function leadingWord(words: readonly string[]): string {
  let best = words[0] ?? '';
  for (const word of words) if (word.length > best.length) best = word;
  return best;
}

/** Whether every one of `query` begins one of `words`. */
export function matchesWords(words: readonly string[], query: readonly string[]): boolean {
  return query.every((wanted) => words.some((word) => word.startsWith(wanted)));
}

/** Between a word and what follows it in an index entry: below every letter and digit. */
export const SEPARATOR = ' ';
/** Above every character a word holds: the end of a prefix's range. */
export const RANGE_END = '\uffff';

/** 10^13 ms (the year 2286): `newestKey` counts down from it. */
const LAST_MS = 1e13;
const NEWEST_LENGTH = 9;

/** A key that sorts newer times first: (LAST_MS - ms) in base 36, 9 digits. An unreadable time sorts last. */
export function newestKey(createdAt: unknown): string {
  const ms = typeof createdAt === 'string' ? Date.parse(createdAt) : NaN;
  const left = Number.isFinite(ms) && ms >= 0 && ms < LAST_MS ? LAST_MS - ms : LAST_MS;
  return left.toString(36).padStart(NEWEST_LENGTH, '0');
}

/** An index entry: a word and what sorts the links having it (newest first). */
export const wordEntry = (word: string, newest: string) => `${word}${SEPARATOR}${newest}`;

/** The word of an index entry. */
export const entryWord = (entry: string) => entry.slice(0, entry.lastIndexOf(SEPARATOR));

/**
 * Where a link comes in a search's list (compared as strings, smaller first), or null when it
 * does not match: among the words the leading word begins, the first in the index's order, the
 * exact word before longer ones, newer before older. This is the order the index gives.
 */
export function searchOrder(words: readonly string[], createdAt: unknown, query: readonly string[]): string | null {
  if (!matchesWords(words, query)) return null;
  const leading = leadingWord(query);
  const newest = newestKey(createdAt);
  let best: string | null = null;
  for (const word of words) {
    if (!word.startsWith(leading)) continue;
    const entry = wordEntry(word, newest);
    if (best === null || entry < best) best = entry;
  }
  return best;
}

/** Each row's words, while the row object lives (a search matches the same rows on every keystroke). */
const wordsOfRow = new WeakMap<object, string[]>();

/** A row's words (linkWords), computed once per row object. */
export function rowWords(row: WordSource): string[] {
  let words = wordsOfRow.get(row);
  if (words === undefined) {
    words = linkWords(row);
    wordsOfRow.set(row, words);
  }
  return words;
}

/**
 * The rows matching `query` (searchWords of a query), in a search's order (searchOrder; equal
 * ones by id, as the index keeps them): what the token index lists, computed over rows in memory.
 */
export function searchList<T extends WordSource & { id: string; created_at: string }>(
  rows: readonly T[],
  query: readonly string[],
): T[] {
  const keyed: { row: T; key: string }[] = [];
  for (const row of rows) {
    const order = searchOrder(rowWords(row), row.created_at, query);
    if (order !== null) keyed.push({ row, key: `${order}${SEPARATOR}${row.id}` });
  }
  return keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map(({ row }) => row);
}
