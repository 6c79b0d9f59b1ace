/**
 * The import dialog's sentences (issue 16): what the file holds before the import, and what the
 * import did after it. Plain views of the plan and the summary, no state.
 */
import { skipList, type ImportPlan } from './import-plan.ts';
import type { ImportSummary } from './run-import.ts';

export const IMPORT_FAILED = 'The import stopped before the end. Import the file again to add the rest.';

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

export function roomText(room: number): string {
  return `Your Free plan has room for ${plural(room, 'more link')}.`;
}

/** Before the import: what was found, what fits, where it goes. */
export function ImportPreview({ plan }: { plan: ImportPlan }) {
  const { found } = plan;
  const calendar = found.events > 0 ? ` and ${plural(found.events, 'calendar item')}` : '';
  const skipped = skipList(plan.skipped)
    .map(({ reason, count }) => `${count.toLocaleString('en-US')} ${reason}`)
    .join(', ');
  return (
    <div className="mt-4 space-y-2 text-sm text-slate-800">
      <p>
        Found {plural(found.links, 'link')} in {plural(found.folders, 'folder')}
        {calendar}.
      </p>
      {plan.room !== null && <p className="font-medium">{roomText(plan.room)}</p>}
      <p>
        {plural(plan.links.length, 'link')} will be imported
        {plan.eventCount > 0 ? `, with ${plural(plan.eventCount, 'calendar item')}` : ''}
        {skipped ? ` (skipped: ${skipped})` : ''}.
      </p>
      {plan.notes.map((note) => (
        <p key={note} className="text-slate-700">
          {note}
        </p>
      ))}
    </div>
  );
}

/** After the import: what was added and what was skipped, with a count per reason. */
export function ImportResult({ summary }: { summary: ImportSummary }) {
  const calendar = summary.events > 0 ? ` and ${plural(summary.events, 'calendar item')}` : '';
  const directories =
    summary.directories > 0 ? `, in ${plural(summary.directories, 'new directory', 'new directories')}` : '';
  return (
    <div className="mt-4 space-y-2 text-sm text-slate-800" role="status">
      <p className="font-medium">
        Imported {plural(summary.imported, 'link')}
        {calendar}
        {directories}.
      </p>
      {summary.skipped.length > 0 && (
        <>
          <p>Skipped:</p>
          <ul className="list-disc pl-5">
            {summary.skipped.map(({ reason, count }) => (
              <li key={reason}>
                {count.toLocaleString('en-US')}: {reason}
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
