import type { LinkRow } from '../../data/rows.ts';

/** What a link card or row needs to show a link and its menu. */
export interface LinkItemProps {
  link: LinkRow;
  canEdit: boolean;
  onEdit(link: LinkRow): void;
  onDelete(link: LinkRow): void;
}
