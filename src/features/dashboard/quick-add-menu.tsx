import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { screenPath } from './screen-path.ts';

/**
 * Quick Add (docs/product.md, Dashboard): each entry opens its screen with `?new=...`, which opens that screen's
 * create dialog. Radix DropdownMenu gives the WAI-ARIA menu pattern.
 */
const entries = [
  { label: 'Add Link', page: 'Links', search: '?new=link' },
  { label: 'Create Event', page: 'Calendar', search: '?new=event' },
  { label: 'Start Vote', page: 'Voting', search: '?new=poll' },
] as const;

const entry =
  'block w-full cursor-default px-3 py-2 text-left text-sm text-slate-800 outline-none data-[highlighted]:bg-slate-100';

export function QuickAddMenu({
  username,
  defaultOpen = false,
  autoFocus = false,
}: {
  username: string | null;
  /** Open at once: the button standing in for the menu was clicked while it loaded. */
  defaultOpen?: boolean;
  /** Take the focus the stand-in button had. */
  autoFocus?: boolean;
}) {
  const navigate = useNavigate();
  const trigger = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (autoFocus && !defaultOpen) trigger.current?.focus();
  }, [autoFocus, defaultOpen]);
  return (
    <DropdownMenu.Root modal={false} defaultOpen={defaultOpen}>
      <DropdownMenu.Trigger
        ref={trigger}
        className="bg-brand-600 hover:bg-brand-700 inline-flex items-center gap-2 rounded-lg px-4 py-2 text-sm font-medium text-white"
      >
        <span aria-hidden="true">+</span> Quick Add
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={4}
          className="z-menu w-44 rounded-lg border border-slate-200 bg-surface py-1 shadow-lg"
        >
          {entries.map(({ label, page, search }) => (
            <DropdownMenu.Item
              key={label}
              className={entry}
              onSelect={() => void navigate(screenPath(page, username, search))}
            >
              {label}
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
