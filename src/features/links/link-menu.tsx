import { useState, type FocusEvent } from 'react';

export interface LinkMenuProps {
  title: string;
  canEdit: boolean;
  onEdit(): void;
  onShare(): void;
  onDelete(): void;
}

const item = 'block w-full px-3 py-1.5 text-left text-sm text-slate-800 hover:bg-slate-100';

/** The row menu (spec 2.6): Edit, Share, Delete. */
export function LinkMenu({ title, canEdit, onEdit, onShare, onDelete }: LinkMenuProps) {
  const [open, setOpen] = useState(false);

  function onBlur(event: FocusEvent<HTMLDivElement>) {
    if (!event.currentTarget.contains(event.relatedTarget)) setOpen(false);
  }

  function choose(action: () => void) {
    setOpen(false);
    action();
  }

  return (
    <div className="relative" onBlur={onBlur}>
      <button
        type="button"
        aria-label={`Actions for ${title}`}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={(e) => {
          e.stopPropagation();
          setOpen(!open);
        }}
        className="rounded-lg px-2 py-1 text-slate-600 hover:bg-slate-100"
      >
        ⋯
      </button>
      {open && (
        <div
          role="menu"
          className="absolute right-0 z-20 mt-1 w-32 rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
        >
          {canEdit && (
            <button type="button" role="menuitem" className={item} onClick={() => choose(onEdit)}>
              Edit
            </button>
          )}
          <button type="button" role="menuitem" className={item} onClick={() => choose(onShare)}>
            Share
          </button>
          {canEdit && (
            <button type="button" role="menuitem" className={`${item} text-red-700`} onClick={() => choose(onDelete)}>
              Delete
            </button>
          )}
        </div>
      )}
    </div>
  );
}
