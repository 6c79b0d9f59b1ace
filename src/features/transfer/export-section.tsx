/**
 * Export on the Profile screen: the whole workspace as JSON, the links as a
 * browser bookmark file, the calendar as .ics. Each file is made on this device from the local
 * database, so it works offline. The import engineer mounts this in 'Import and export'.
 */
import { useState } from 'react';
import type { LinkboardDb } from '../../data/db.ts';
import { Button } from '../../ui/button.tsx';
import { buildBookmarksHtml } from './bookmarks-export.ts';
import { buildCalendarFile } from './calendar-export.ts';
import { downloadFile, EXPORT_TYPES, exportFileName, type ExportKind } from './download.ts';
import { bookmarksSummary, calendarSummary, workspaceSummary } from './export-summary.ts';
import { buildWorkspaceExport, type ExportContext, type WorkspaceExport } from './workspace-export.ts';

export const EXPORT_FAILED = 'The export failed. Try again.';

interface ExportAction {
  kind: ExportKind;
  label: string;
  content(exp: WorkspaceExport, timeZone: string): string;
  summary(exp: WorkspaceExport): string;
}

const ACTIONS: readonly ExportAction[] = [
  {
    kind: 'json',
    label: 'Export everything (JSON)',
    content: (exp) => `${JSON.stringify(exp, null, 2)}\n`,
    summary: workspaceSummary,
  },
  { kind: 'html', label: 'Export bookmarks (HTML)', content: buildBookmarksHtml, summary: bookmarksSummary },
  { kind: 'ics', label: 'Export calendar (.ics)', content: buildCalendarFile, summary: calendarSummary },
];

export interface ExportSectionProps {
  db: LinkboardDb;
  ctx: ExportContext;
}

type Outcome = { ok: true; message: string } | { ok: false; message: string };

export function ExportSection({ db, ctx }: ExportSectionProps) {
  const [busy, setBusy] = useState<ExportKind | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const run = async (action: ExportAction) => {
    setBusy(action.kind);
    setOutcome(null);
    try {
      const exp = await buildWorkspaceExport(db, ctx);
      downloadFile(
        exportFileName(action.kind, ctx.now()),
        EXPORT_TYPES[action.kind],
        action.content(exp, ctx.timeZone),
      );
      setOutcome({ ok: true, message: action.summary(exp) });
    } catch (error) {
      console.error(error);
      setOutcome({ ok: false, message: EXPORT_FAILED });
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="mt-2 grid gap-3">
      <p className="text-sm text-slate-700">
        Exports are made on this device from the data stored here, so they work offline too.
      </p>
      <div className="flex flex-wrap gap-3">
        {ACTIONS.map((action) => (
          <Button
            key={action.kind}
            variant="secondary"
            disabled={busy !== null}
            aria-busy={busy === action.kind || undefined}
            onClick={() => void run(action)}
          >
            {action.label}
          </Button>
        ))}
      </div>
      <p
        role="status"
        className={`text-sm ${outcome?.ok === false ? 'text-red-700 dark:text-red-300' : 'text-slate-700'}`}
      >
        {outcome?.message ?? ''}
      </p>
    </div>
  );
}
