/** Pure helpers of the links screen (docs/product.md, Links screen; Plans and limits). */
import type { DirectoryRow, LinkRow } from '../../data/rows.ts';
import { formatCount } from '../../domain/number-format.ts';
import { matchesWords, rowWords, searchList as searchRows, searchWords } from '../../domain/search-words.ts';

export const TAGS_SHOWN = 2;
export const URL_SHORT = 30;
export const LINK_WARNING_ABOVE = 25;

export function matchesDirectory(directory: DirectoryRow, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (q === '') return true;
  return directory.name.toLowerCase().includes(q) || (directory.description ?? '').toLowerCase().includes(q);
}

/**
 * Whether `link` matches a search (docs/product.md, Links screen): every word of `query` begins a
 * word of its title, tags, address or notes (src/domain/search-words.ts), the rule the token
 * index reads by (src/data/queries/link-search.ts).
 */
export function matchesLink(link: LinkRow, query: string): boolean {
  return linkMatcher(query)(link);
}

/** A search's test of a link (matchesLink), the query read once. */
export function linkMatcher(query: string): (link: LinkRow) => boolean {
  const words = searchWords(query);
  if (words.length === 0) return () => true;
  return (link) => matchesWords(rowWords(link), words);
}

/**
 * The links a search of `links` lists, in its order (src/domain/search-words.ts, searchOrder):
 * those having the longest word typed exactly, newest first, then those having a longer word.
 */
export function searchList(links: readonly LinkRow[], query: string): LinkRow[] {
  return searchRows(links, searchWords(query));
}

/** The line above a search's list when more links may match than it shows. */
export function searchCapText(shown: number): string {
  return `Showing the first ${formatCount(shown, 'match', 'matches')}. Type more to narrow the search.`;
}

/** '1 link', '1,000 links' (in the user's locale). */
export function linkCountLabel(count: number): string {
  return formatCount(count, 'link');
}

export function shortUrl(url: string): string {
  return url.length > URL_SHORT ? `${url.slice(0, URL_SHORT)}...` : url;
}

export function directoryBadge(directory: DirectoryRow): 'Private' | 'Public' | 'Password Protected' {
  if (!directory.is_public) return 'Private';
  return directory.has_password ? 'Password Protected' : 'Public';
}

export function directoryPath(username: string, id: string): string {
  return `/Links/${username}/dir/${id}`;
}
