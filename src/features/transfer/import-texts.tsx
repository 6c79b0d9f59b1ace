/**
 * The import dialog's sentences: what the file holds before the import, and what the import did
 * after it. Plain views of the plan and the summary, no state. Every number is in the user's locale
 * (number-format.ts), as everywhere else.
 */
import { formatCount, formatNumber } from '../../domain/number-format.ts';
import { skipList, type ImportPlan } from './import-plan.ts';
import type { ImportSummary } from './run-import.ts';

export const IMPORT_FAILED = 'The import stopped before the end. Import the file again to add the rest.';

export function roomText(room: number): string {
  return `Your Free plan has room for ${formatCount(room, 'more link')}.`;
}

/** Before the import: what was found, what fits, where it goes, and what could not be read. */
export function ImportPreview({ plan }: { plan: ImportPlan }) {
  const { found } = plan;
  const calendar = found.events > 0 ? ` and ${formatCount(found.events, 'calendar item')}` : '';
  const skipped = skipList(plan.skipped)
    .map(({ reason, count }) => `${formatNumber(count)} ${reason}`)
    .join(', ');
  return (
    <div className="mt-4 space-y-2 text-sm text-slate-800">
      {plan.warnings.map((warning) => (
        <p
          key={warning}
          role="alert"
          className="rounded-lg bg-amber-50 dark:bg-amber-950/40 p-2 text-amber-900 dark:text-amber-100"
        >
          {warning}
        </p>
      ))}
      <p>
        Found {formatCount(found.links, 'link')} in {formatCount(found.folders, 'folder')}
        {calendar}.
      </p>
      {plan.room !== null && <p className="font-medium">{roomText(plan.room)}</p>}
      <p>
        {formatCount(plan.links.length, 'link')} will be imported
        {plan.eventCount > 0 ? `, with ${formatCount(plan.eventCount, 'calendar item')}` : ''}
        {skipped ? ` (skipped: ${skipped})` : ''}.
      </p>
      {plan.notes
        .filter((note) => note !== plan.upsell)
        .map((note) => (
          <p key={note} className="text-slate-700">
            {note}
          </p>
        ))}
    </div>
  );
}

/** After the import: what was added and what was skipped, with a count per reason. */
export function ImportResult({ summary }: { summary: ImportSummary }) {
  const calendar = summary.events > 0 ? ` and ${formatCount(summary.events, 'calendar item')}` : '';
  const directories =
    summary.directories > 0 ? `, in ${formatCount(summary.directories, 'new directory', 'new directories')}` : '';
  return (
    <div className="mt-4 space-y-2 text-sm text-slate-800" role="status">
      <p className="font-medium">
        Imported {formatCount(summary.imported, 'link')}
        {calendar}
        {directories}.
      </p>
      {summary.skipped.length > 0 && (
        <>
          <p>Skipped:</p>
          <ul className="list-disc pl-5">
            {summary.skipped.map(({ reason, count }) => (
              <li key={reason}>
                {formatNumber(count)}: {reason}
              </li>
            ))}
          </ul>
        </>
      )}
      {summary.notes.map((note) => (
        <p key={note} className="text-slate-700">
          {note}
        </p>
      ))}
    </div>
  );
}
