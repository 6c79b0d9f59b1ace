/**
 * The content of the Profile screen's 'Import and export' section: 'Import bookmarks'
 * (the import dialog) and the export actions (ExportSection). The app puts it in the profile
 * feature's slot.
 */
import type { LinkboardDb } from '../../data/db.ts';
import type { MutationContext } from '../../data/mutation-context.ts';
import { ExportSection } from './export-section.tsx';
import { ImportBookmarksButton } from './import-bookmarks-button.tsx';

export function ImportExportSection({ db, ctx }: { db: LinkboardDb; ctx: MutationContext }) {
  return (
    <div className="mt-4 space-y-6">
      <div>
        <p className="text-sm text-slate-700">
          Bring in the bookmarks your browser exports (.html) or a Linkboard export (.json). Duplicates are skipped.
        </p>
        <div className="mt-3">
          <ImportBookmarksButton db={db} ctx={ctx} />
        </div>
      </div>
      <ExportSection db={db} ctx={ctx} />
    </div>
  );
}
