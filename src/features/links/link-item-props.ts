import type { LinkRow } from '../../data/rows.ts';

/** What a link card or row needs to show a link and its menu. */
export interface LinkItemProps {
  link: LinkRow;
  canEdit: boolean;
  onEdit(link: LinkRow): void;
  onDelete(link: LinkRow): void;
}

const sameValue = (a: unknown, b: unknown) =>
  a === b || (Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => item === b[i]));

/** Whether two rows of a link hold the same values (arrays, such as the tags, item by item). */
export function sameLink(a: LinkRow, b: LinkRow): boolean {
  if (a === b) return true;
  const keys = Object.keys(a) as (keyof LinkRow)[];
  return keys.length === Object.keys(b).length && keys.every((key) => sameValue(a[key], b[key]));
}

/**
 * A card's or row's props compared for memo: a window read again (a scroll to the next page, a
 * write to the directory) gives new objects for the same links, which render nothing new.
 */
export const sameItem = (a: LinkItemProps, b: LinkItemProps) =>
  a.canEdit === b.canEdit && a.onEdit === b.onEdit && a.onDelete === b.onDelete && sameLink(a.link, b.link);
