/** Pure helpers of the links screen (spec 2.6, 9). */
import type { DirectoryRow, LinkRow } from '../../data/rows.ts';

export const TAGS_SHOWN = 2;
export const URL_SHORT = 30;
export const LINK_WARNING_ABOVE = 25;

export function matchesDirectory(directory: DirectoryRow, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (q === '') return true;
  return directory.name.toLowerCase().includes(q) || (directory.description ?? '').toLowerCase().includes(q);
}

export function matchesLink(link: LinkRow, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (q === '') return true;
  return (
    link.title.toLowerCase().includes(q) ||
    link.url.toLowerCase().includes(q) ||
    link.tags.some((tag) => tag.toLowerCase().includes(q))
  );
}

export function linkCountLabel(count: number): string {
  return count === 1 ? '1 link' : `${count} links`;
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
