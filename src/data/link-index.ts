/**
 * The local keys of each stored link (docs/architecture.md, Reads that cost what the screen shows).
 * Like the calendar's keys they are local only (never columns, never sent or exported) and set on
 * every put by the local-keys middleware (local-keys.ts), so a mutation, a pull, a push answer and
 * an upgrade all write them.
 *
 * - `_urlKey`: the duplicate rule's key (docs/architecture.md, Duplicate links), the link's
 *   identity (src/domain/link-identity.ts), so a URL typed in Add Link finds the links it repeats
 *   with one index lookup. A link whose URL the rule cannot read has none.
 * - `_words`: the search's token index (docs/product.md, Links screen and Command palette). A
 *   link's words (src/domain/search-words.ts: its title, tags, address and notes, folded, at most
 *   16) each make one entry `{word} {newest}`, where `newest` sorts the newest link first. Read in
 *   index order over a word's prefix, the entries give the links having that exact word first,
 *   newest first, then those having a longer word, word by word (alphabetically), newest first
 *   within each: a keystroke reads only about as many entries as it shows (queries/link-search.ts).
 *   Each entry costs every put (a first sync writes them for every pulled link), so there is one
 *   index, not a second per directory: a directory's search checks the directory on the keys.
 */
import { linkIdentity } from '../domain/link-identity.ts';
import { linkWords, newestKey, wordEntry } from '../domain/search-words.ts';

export interface LinkKeys {
  _urlKey?: string;
  _words?: string[];
}

/** The fields LinkKeys sets (those a put must replace, the comparison with a server row must ignore). */
export const LINK_KEY_FIELDS = ['_urlKey', '_words'] as const;

/**
 * The row with its keys, stale ones dropped. Without `words`, the row is stored without `_words`
 * (a pull from scratch's: the word backlog indexes it after, word-backlog.ts).
 */
export function withLinkKeys<T extends { url: string }>(row: T, words = true): T & LinkKeys {
  const bare = { ...row } as T & LinkKeys;
  for (const field of LINK_KEY_FIELDS) delete bare[field];
  const key = linkIdentity(row.url);
  if (key !== null) bare._urlKey = key;
  if (!words) return bare;
  const entries = wordEntriesOf(row);
  if (entries.length > 0) bare._words = entries;
  return bare;
}

/** A link's token index entries, as `_words` holds them: each of its words with its newest-first key. */
export function wordEntriesOf(row: { url: string }): string[] {
  const newest = newestKey(Reflect.get(row, 'created_at'));
  return linkWords(row).map((word) => wordEntry(word, newest));
}

/** The identity key a stored link carries (null for a URL the rule cannot read). */
export function urlKeyOf(row: object): string | null {
  const key: unknown = Reflect.get(row, '_urlKey');
  return typeof key === 'string' ? key : null;
}
