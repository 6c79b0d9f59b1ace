/**
 * The event dialog's 'Type a plan' field (docs/product.md, Calendar 'Type a plan'): a phrase read as
 * the user types (src/domain/plain-words.ts), shown as a preview to use or ignore. Loaded lazily by
 * the dialog, so the date parser is not in any screen's first load.
 */
import { useEffect, useId, useMemo, useState } from 'react';
import { isDayFirst, planPreviewText } from '../../domain/plain-words-preview.ts';
import { readPlan, type PlanReading } from '../../domain/plain-words.ts';
import { fieldInput, fieldLabel } from '../../ui/form-dialog.tsx';
import { PlanPreview } from '../../ui/plan-preview.tsx';
import { whenIdle } from '../../timing/when-idle.ts';
import { planValues, type PlanValues } from './plan-values.ts';
import { appNowMs } from '../../backend/server-clock.ts';

export const PRO_REPEATS = 'Recurring events are a Pro feature.';
/** The calendar grid's weeks start on Monday (calendar-classify.ts, ISO weeks). */
const CALENDAR_WEEK_START = 1;

export interface PlanFieldProps {
  timeZone: string;
  /** Whether the plan allows series: a repeat is filled only then. */
  paid: boolean;
  /** What the field starts with (a phrase typed in the command palette), read at once. */
  initialText?: string;
  onUse(values: PlanValues): void;
}

export default function PlanField({ timeZone, paid, initialText = '', onUse }: PlanFieldProps) {
  const id = useId();
  const [text, setText] = useState(initialText);
  // The parser's first reading compiles its patterns (tens of milliseconds): done while idle, not on a keystroke.
  useEffect(
    () =>
      whenIdle(
        () => void readPlan('Warm up tomorrow 9:00-10:00 every day until 3/4 p1', { now: appNowMs(), timeZone }),
        2000,
      ),
    [timeZone],
  );
  // Read in the event handlers, against the clock of the moment (the preview as typed, 'Use this' afresh).
  const readNow = (value: string) =>
    value.trim() === ''
      ? null
      : readPlan(value, { now: appNowMs(), timeZone, weekStart: CALENDAR_WEEK_START, dayFirst: isDayFirst() });
  const [reading, setReading] = useState<PlanReading | null>(() => readNow(initialText));
  const preview = useMemo(() => {
    if (!reading) return null;
    const shown = planPreviewText(reading, timeZone);
    return reading.repeat && !paid ? { ...shown, notes: [...shown.notes, PRO_REPEATS] } : shown;
  }, [reading, timeZone, paid]);
  const use = () => {
    const current = readNow(text);
    if (!current) return;
    onUse(planValues(current, timeZone, paid));
    setText('');
    setReading(null);
  };
  return (
    <div className="space-y-2">
      <label className={fieldLabel}>
        Type a plan
        <input
          className={fieldInput}
          value={text}
          placeholder="e.g. Dentist tomorrow 15:30"
          autoComplete="off"
          aria-describedby={preview ? `${id}-preview` : undefined}
          onChange={(event) => {
            setText(event.target.value);
            setReading(readNow(event.target.value));
          }}
          onKeyDown={(event) => {
            // Enter uses the plan rather than submitting the dialog.
            if (event.key !== 'Enter') return;
            event.preventDefault();
            use();
          }}
        />
      </label>
      {preview && <PlanPreview id={`${id}-preview`} rows={preview.rows} notes={preview.notes} onUse={use} />}
    </div>
  );
}
