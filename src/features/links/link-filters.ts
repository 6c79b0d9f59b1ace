/** Pure helpers of the links screen (docs/product.md, Links screen; Plans and limits). */
import type { DirectoryRow, LinkRow } from '../../data/rows.ts';
import { formatCount } from '../../domain/number-format.ts';

export const TAGS_SHOWN = 2;
export const URL_SHORT = 30;
export const LINK_WARNING_ABOVE = 25;

export function matchesDirectory(directory: DirectoryRow, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (q === '') return true;
  return directory.name.toLowerCase().includes(q) || (directory.description ?? '').toLowerCase().includes(q);
}

/** Whether `link`'s title, URL or a tag holds `query` (trimmed, any case). */
export function matchesLink(link: LinkRow, query: string): boolean {
  return linkMatcher(query)(link);
}

/** Each row's title, URL and tags, lowercased and one per line, while the row object lives. */
const searchTexts = new WeakMap<LinkRow, string>();

function searchText(link: LinkRow): string {
  let text = searchTexts.get(link);
  if (text === undefined) {
    text = [link.title, link.url, ...link.tags].join('\n').toLowerCase();
    searchTexts.set(link, text);
  }
  return text;
}

/**
 * A search's test of a link (matchesLink), the query read once. A search keeps the directory's
 * rows between keystrokes, so each row is lowercased once, not once per keystroke: at 50,000
 * links that was most of a keystroke's work. Fields are one per line, so a match never spans two
 * (a query from the one-line search box holds no line break; one that does is matched per field).
 */
export function linkMatcher(query: string): (link: LinkRow) => boolean {
  const q = query.trim().toLowerCase();
  if (q === '') return () => true;
  if (q.includes('\n')) {
    return (link) =>
      link.title.toLowerCase().includes(q) ||
      link.url.toLowerCase().includes(q) ||
      link.tags.some((tag) => tag.toLowerCase().includes(q));
  }
  return (link) => searchText(link).includes(q);
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
