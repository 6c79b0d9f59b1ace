import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';

export interface RowMenuItem {
  label: string;
  onSelect(): void;
  tone?: 'danger';
}

interface RowMenuProps {
  label: string;
  items: RowMenuItem[];
  isolated?: boolean;
}

const entry =
  'block w-full cursor-default px-3 py-1.5 text-left text-sm text-slate-800 outline-none data-[highlighted]:bg-slate-100';
const trigger = 'rounded-lg px-2 py-1 text-slate-600 hover:bg-slate-100';
/** The keys that open a menu button (WAI-ARIA menu button pattern, and Radix's trigger). */
const opening = new Set(['Enter', ' ', 'ArrowDown']);

/**
 * A row's ⋯ menu. Radix DropdownMenu gives the menu pattern of WAI-ARIA: arrow keys and
 * typeahead between items, Escape and outside clicks close it, the focus goes back to the button.
 * `isolated`: its clicks stay inside (for rows that open something on click).
 *
 * Until it is first opened, a row shows a plain button of the same look and name: a mounted
 * Radix menu is a dozen components, and its anchor renders it a second time once mounted, so a
 * list mounting rows (a new link at the top, a scroll) paid for both in the frame that shows them.
 * The first click (or Enter, Space, ArrowDown) mounts the menu, open. It opens on the click, not
 * the press as Radix's trigger does: the button under the pointer is replaced, and a press on one
 * element released on another would send its click to the row around them.
 */
export function RowMenu(props: RowMenuProps) {
  const [open, setOpen] = useState<boolean | null>(null);
  /** Opened from the keyboard: the focus goes to the first item (Radix's trigger does the same). */
  const focusFirstRef = useRef(false);
  const stop = props.isolated ? (event: { stopPropagation(): void }) => event.stopPropagation() : undefined;
  if (open === null) {
    const arm = (keyboard: boolean) => {
      focusFirstRef.current = keyboard;
      setOpen(true);
    };
    return (
      <button
        type="button"
        aria-label={props.label}
        aria-haspopup="menu"
        aria-expanded={false}
        onClick={(event: MouseEvent<HTMLButtonElement>) => {
          stop?.(event);
          arm(false);
        }}
        onKeyDown={(event: KeyboardEvent<HTMLButtonElement>) => {
          if (!opening.has(event.key)) return;
          // As Radix's trigger: the key opens it (no click follows), the first item focused.
          event.preventDefault();
          arm(true);
        }}
        className={trigger}
      >
        ⋯
      </button>
    );
  }
  return <Menu {...props} open={open} onOpenChange={setOpen} stop={stop} focusFirstRef={focusFirstRef} />;
}

function Menu({
  label,
  items,
  open,
  onOpenChange,
  stop,
  focusFirstRef,
}: RowMenuProps & {
  open: boolean;
  onOpenChange(open: boolean): void;
  stop: ((event: { stopPropagation(): void }) => void) | undefined;
  focusFirstRef: { current: boolean };
}) {
  return (
    <DropdownMenu.Root modal={false} open={open} onOpenChange={onOpenChange}>
      <DropdownMenu.Trigger aria-label={label} onClick={stop} className={trigger}>
        ⋯
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={4}
          onClick={stop}
          onFocus={(event) => {
            if (!focusFirstRef.current || event.target !== event.currentTarget) return;
            // Opened from the plain button by a key, which Radix did not see: it focuses the menu
            // itself; the menu button pattern puts the focus on the first item.
            focusFirstRef.current = false;
            event.currentTarget.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
          }}
          className="z-menu w-32 rounded-lg border border-slate-200 bg-surface py-1 shadow-lg"
        >
          {items.map((item) => (
            <DropdownMenu.Item
              key={item.label}
              className={item.tone === 'danger' ? `${entry} text-red-700 dark:text-red-300` : entry}
              onSelect={item.onSelect}
            >
              {item.label}
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
