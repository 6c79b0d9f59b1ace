import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { shareLink } from './link-actions.ts';
import type { LinkItemProps } from './link-item-props.ts';

const item =
  'block w-full cursor-default px-3 py-1.5 text-left text-sm text-slate-800 outline-none data-[highlighted]:bg-slate-100';

/**
 * The row menu (spec 2.6): Edit, Share, Delete. Radix DropdownMenu gives the menu pattern of
 * WAI-ARIA: arrow keys and typeahead between items, Escape and outside clicks close it, the focus
 * goes back to the ⋯ button.
 */
export function LinkMenu({ link, canEdit, onEdit, onDelete }: LinkItemProps) {
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        aria-label={`Actions for ${link.title}`}
        // The card or row around it opens the link on click: the menu's clicks stay here.
        onClick={(event) => event.stopPropagation()}
        className="rounded-lg px-2 py-1 text-slate-600 hover:bg-slate-100"
      >
        ⋯
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={4}
          onClick={(event) => event.stopPropagation()}
          className="z-50 w-32 rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
        >
          {canEdit && (
            <DropdownMenu.Item className={item} onSelect={() => onEdit(link)}>
              Edit
            </DropdownMenu.Item>
          )}
          <DropdownMenu.Item className={item} onSelect={() => void shareLink(link)}>
            Share
          </DropdownMenu.Item>
          {canEdit && (
            <DropdownMenu.Item className={`${item} text-red-700`} onSelect={() => onDelete(link)}>
              Delete
            </DropdownMenu.Item>
          )}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
