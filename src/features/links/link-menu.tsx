import { RowMenu, type RowMenuItem } from '../../ui/row-menu.tsx';
import { shareLink } from './link-actions.ts';
import type { LinkItemProps } from './link-item-props.ts';

/** The row menu (docs/product.md, Links screen): Edit, Share, Delete. The card or row around it opens the link on click. */
export function LinkMenu({ link, canEdit, onEdit, onDelete }: LinkItemProps) {
  const items: RowMenuItem[] = [];
  if (canEdit) items.push({ label: 'Edit', onSelect: () => onEdit(link) });
  items.push({ label: 'Share', onSelect: () => void shareLink(link) });
  if (canEdit) items.push({ label: 'Delete', onSelect: () => onDelete(link), tone: 'danger' });
  return <RowMenu label={`Actions for ${link.title}`} items={items} isolated />;
}
