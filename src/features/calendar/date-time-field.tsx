import { useState } from 'react';
import { formatClock, parseClock } from '../../domain/date-format.ts';
import { fieldInput as input, fieldLabel as label } from '../../ui/form-dialog.tsx';

export interface DateTimeFieldProps {
  id: string;
  dateLabel: string;
  timeLabel: string;
  /** 'YYYY-MM-DDTHH:mm' in the user's zone, or '' when empty. */
  value: string;
  onChange(value: string): void;
  /** Only the date (an all-day item): the time is then 00:00. */
  dateOnly: boolean;
  minDate?: string;
  invalid: boolean;
  describedBy?: string;
}

/** The time a date gets when it is picked before any time is typed. */
const DEFAULT_CLOCK = '09:00';

/**
 * A date and a time of day, as the event dialog takes them. The date is the browser's date
 * picker; the time is a text field written and read in the user's locale (date-format.ts), since
 * a native time or datetime-local input follows the browser's own 12- or 24-hour setting, which
 * need not be the locale every list is formatted in. The field keeps what is typed; the value
 * holds the parsed 'HH:mm', or the raw text when it is not a time (the save then says
 * 'Invalid date.').
 */
export function DateTimeField(props: DateTimeFieldProps) {
  const { id, value, onChange, dateOnly, invalid, describedBy } = props;
  const date = value.slice(0, 10);
  const clock = value.slice(11);
  const [draft, setDraft] = useState(() => formatClock(clock) || clock);
  const [shownClock, setShownClock] = useState(clock);
  // A value set from outside (the end after a start change) shows in the locale's form.
  if (clock !== shownClock) {
    setShownClock(clock);
    if (parseClock(draft) !== clock) setDraft(formatClock(clock) || clock);
  }
  const timeOf = (text: string) => parseClock(text) ?? (text.trim() === '' ? DEFAULT_CLOCK : text);
  const aria = { 'aria-invalid': invalid, 'aria-describedby': describedBy };

  return (
    <div className={dateOnly ? '' : 'grid grid-cols-2 gap-3'}>
      <label className={label}>
        {props.dateLabel}
        <input
          id={`${id}-date`}
          type="date"
          className={input}
          value={date}
          min={props.minDate}
          {...aria}
          onChange={(event) => {
            const day = event.target.value;
            onChange(day === '' ? '' : `${day}T${dateOnly ? '00:00' : timeOf(draft)}`);
          }}
        />
      </label>
      {!dateOnly && (
        <label className={label}>
          {props.timeLabel}
          <input
            id={`${id}-time`}
            type="text"
            autoComplete="off"
            spellCheck={false}
            className={input}
            value={draft}
            placeholder={formatClock(DEFAULT_CLOCK)}
            {...aria}
            onChange={(event) => {
              const text = event.target.value;
              setDraft(text);
              if (date !== '') onChange(`${date}T${timeOf(text)}`);
            }}
            onBlur={() => {
              const parsed = parseClock(draft);
              if (parsed !== null) setDraft(formatClock(parsed));
            }}
          />
        </label>
      )}
    </div>
  );
}
