import * as DropdownMenu from '@radix-ui/react-dropdown-menu';

export interface RowMenuItem {
  label: string;
  onSelect(): void;
  tone?: 'danger';
}

const entry =
  'block w-full cursor-default px-3 py-1.5 text-left text-sm text-slate-800 outline-none data-[highlighted]:bg-slate-100';

/**
 * A row's ⋯ menu. Radix DropdownMenu gives the menu pattern of WAI-ARIA: arrow keys and
 * typeahead between items, Escape and outside clicks close it, the focus goes back to the button.
 * `isolated`: its clicks stay inside (for rows that open something on click).
 */
export function RowMenu({
  label,
  items,
  isolated = false,
}: {
  label: string;
  items: RowMenuItem[];
  isolated?: boolean;
}) {
  const stop = isolated ? (event: { stopPropagation(): void }) => event.stopPropagation() : undefined;
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        aria-label={label}
        onClick={stop}
        className="rounded-lg px-2 py-1 text-slate-600 hover:bg-slate-100"
      >
        ⋯
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={4}
          onClick={stop}
          className="z-50 w-32 rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
        >
          {items.map((item) => (
            <DropdownMenu.Item
              key={item.label}
              className={item.tone === 'danger' ? `${entry} text-red-700` : entry}
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
