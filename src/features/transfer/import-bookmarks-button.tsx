/**
 * 'Import bookmarks': a button that opens the import dialog. Shown on the Profile
 * screen's 'Import and export' section and in the empty states of My Links, through the app's slots.
 */
import { useState } from 'react';
import type { LinkboardDb } from '../../data/db.ts';
import type { MutationContext } from '../../data/mutation-context.ts';
import { Button } from '../../ui/button.tsx';
import { ImportDialog } from './import-dialog.tsx';

export interface ImportBookmarksButtonProps {
  db: LinkboardDb;
  ctx: MutationContext;
  variant?: 'primary' | 'secondary';
}

export function ImportBookmarksButton({ db, ctx, variant = 'secondary' }: ImportBookmarksButtonProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant={variant} onClick={() => setOpen(true)}>
        Import bookmarks
      </Button>
      {open && <ImportDialog db={db} ctx={ctx} onClose={() => setOpen(false)} />}
    </>
  );
}
