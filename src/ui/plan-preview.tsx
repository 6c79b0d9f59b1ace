/**
 * The preview of a plan typed in plain words (docs/product.md, Calendar 'Type a plan'): the fields it
 * would fill, what was not understood, and 'Use this'. Plain text in, so any screen can show a
 * reading (src/domain/plain-words-preview.ts makes the rows).
 */
export interface PlanPreviewProps {
  rows: { label: string; value: string }[];
  notes: string[];
  /** Fills the fields; absent where the preview only informs. */
  onUse?: () => void;
  id?: string;
}

export function PlanPreview({ rows, notes, onUse, id }: PlanPreviewProps) {
  return (
    <div
      id={id}
      role="status"
      aria-label="Plan preview"
      className="space-y-2 rounded-lg border border-slate-200 bg-brand-50 p-3 text-sm text-slate-800 dark:bg-brand-950/40"
    >
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        {rows.map(({ label, value }) => (
          <div key={label} className="contents">
            <dt className="font-medium text-slate-600">{label}</dt>
            <dd data-testid={`plan-${label.toLowerCase()}`}>{value}</dd>
          </div>
        ))}
      </dl>
      {notes.length > 0 && (
        <ul className="list-disc pl-5 text-amber-800 dark:text-amber-200">
          {notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
      {onUse && (
        <button
          type="button"
          onClick={onUse}
          className="rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          Use this
        </button>
      )}
    </div>
  );
}
