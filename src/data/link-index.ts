/**
 * The local keys of each stored link (docs/architecture.md, Reads that cost what the screen shows).
 * Like the calendar's keys they are local only (never columns, never sent or exported) and set on
 * every put by the local-keys middleware (local-keys.ts), so a mutation, a pull, a push answer and
 * an upgrade all write them.
 *
 * - `_urlKey`: the duplicate rule's key (docs/architecture.md, Duplicate links), the link's
 *   identity (src/domain/link-identity.ts), so a URL typed in Add Link finds the links it repeats
 *   with one index lookup. A link whose URL the rule cannot read has none.
 * - `_words` and `_dirWords`: the search's token index (docs/product.md, Links screen and Command
 *   palette). A link's words (src/domain/search-words.ts: its title, tags, address and notes,
 *   folded) each make one entry `{word} {newest}` in `_words`, and one
 *   `{directory tag} {word} {newest}` in `_dirWords`, where `newest` sorts the newest link first.
 *   Read in index order over a word's prefix, the entries give the links having that exact word
 *   first, newest first, then those having a longer word, word by word (alphabetically), newest
 *   first within each: a keystroke reads only the few entries it shows (queries/link-search.ts).
 *   The directory's tag is the start of its id, so a directory's search reads its own entries
 *   only (the tag of two directories could agree: a search checks each link's directory).
 */
import { linkIdentity } from '../domain/link-identity.ts';
import { linkWords, newestKey, SEPARATOR, wordEntry } from '../domain/search-words.ts';

export interface LinkKeys {
  _urlKey?: string;
  _words?: string[];
  _dirWords?: string[];
}

/** The fields LinkKeys sets (those a put must replace, the comparison with a server row must ignore). */
export const LINK_KEY_FIELDS = ['_urlKey', '_words', '_dirWords'] as const;

/** The characters of a directory's id its tag keeps. */
const TAG_LENGTH = 8;

/** The start of a directory's id its entries carry. */
export const directoryTag = (directoryId: string) => directoryId.slice(0, TAG_LENGTH);

/** Where the entries of the words `prefix` begins start: within a directory's (`_dirWords`) or anywhere (`_words`). */
export const prefixKey = (prefix: string, directoryId: string | null) =>
  directoryId === null ? prefix : `${directoryTag(directoryId)}${SEPARATOR}${prefix}`;

/** The row with its keys, stale ones dropped. */
export function withLinkKeys<T extends { url: string }>(row: T): T & LinkKeys {
  const bare = { ...row } as T & LinkKeys;
  for (const field of LINK_KEY_FIELDS) delete bare[field];
  const key = linkIdentity(row.url);
  if (key !== null) bare._urlKey = key;
  const words = linkWords(row);
  if (words.length > 0) {
    const newest = newestKey(Reflect.get(row, 'created_at'));
    const directory: unknown = Reflect.get(row, 'directory_id');
    const tag = directoryTag(typeof directory === 'string' ? directory : '');
    bare._words = words.map((word) => wordEntry(word, newest));
    bare._dirWords = bare._words.map((entry) => `${tag}${SEPARATOR}${entry}`);
  }
  return bare;
}

/** The identity key a stored link carries (null for a URL the rule cannot read). */
export function urlKeyOf(row: object): string | null {
  const key: unknown = Reflect.get(row, '_urlKey');
  return typeof key === 'string' ? key : null;
}
