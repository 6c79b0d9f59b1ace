import { Controller, useWatch, type Control, type FieldErrors, type UseFormSetValue } from 'react-hook-form';
import { endAfterStartChange, toLocalInput } from '../../domain/event-times.ts';
import { FieldError } from '../../ui/form-dialog.tsx';
import { DateTimeField } from './date-time-field.tsx';
import type { EventFormValues } from './event-form.ts';
import { appNow } from '../../backend/server-clock.ts';

export interface EventTimeFieldsProps {
  ids: string;
  control: Control<EventFormValues>;
  setValue: UseFormSetValue<EventFormValues>;
  errors: FieldErrors<EventFormValues>;
  timeZone: string;
}

/** The same day at another wall-clock time ('' stays ''). */
const at = (value: string, clock: string) => (value === '' ? '' : `${value.slice(0, 10)}T${clock}`);

/**
 * The event dialog's 'All day' checkbox and its start and end (docs/product.md, Calendar): a date and a time each
 * (date-time-field.tsx), or only dates for an all-day item, whose end is its last day. Changing
 * the start moves the end as docs/product.md, Validation says (an hour later for events, equal for tasks; an all-day
 * event's last day never before its first).
 */
export function EventTimeFields({ ids, control, setValue, errors, timeZone }: EventTimeFieldsProps) {
  const [isTask, allDay, start, end] = useWatch({ control, name: ['isTask', 'allDay', 'start', 'end'] });
  const minimum = toLocalInput(appNow(), timeZone);
  const endAfter = (next: string, wholeDays: boolean) => {
    if (next === '') return;
    if (!wholeDays) setValue('end', endAfterStartChange(next, isTask, timeZone));
    else if (isTask || end === '' || end.slice(0, 10) < next.slice(0, 10)) setValue('end', at(next, '00:00'));
  };
  return (
    <>
      <Controller
        control={control}
        name="allDay"
        render={({ field }) => (
          <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
            <input
              type="checkbox"
              className="h-4 w-4 accent-brand-600"
              checked={field.value}
              onChange={(event) => {
                const checked = event.target.checked;
                field.onChange(checked);
                const next = at(start, checked ? '00:00' : '09:00');
                setValue('start', next);
                if (checked && end !== '' && !isTask) setValue('end', at(end, '00:00'));
                endAfter(next, checked);
              }}
            />
            All day
          </label>
        )}
      />
      <Controller
        control={control}
        name="start"
        render={({ field }) => (
          <DateTimeField
            id={`${ids}-start`}
            dateLabel={isTask ? 'Due date (optional)' : 'Start date'}
            timeLabel={isTask ? 'Due time' : 'Start time'}
            value={field.value}
            dateOnly={allDay}
            minDate={minimum.slice(0, 10)}
            invalid={!!errors.start}
            describedBy={errors.start ? `${ids}-start-error` : undefined}
            onChange={(next) => {
              field.onChange(next);
              endAfter(next, allDay);
            }}
          />
        )}
      />
      <FieldError id={`${ids}-start-error`} message={errors.start?.message} />
      {!isTask && (
        <>
          <Controller
            control={control}
            name="end"
            render={({ field }) => (
              <DateTimeField
                id={`${ids}-end`}
                dateLabel="End date"
                timeLabel="End time"
                value={field.value}
                dateOnly={allDay}
                minDate={(start || minimum).slice(0, 10)}
                invalid={!!errors.end}
                describedBy={errors.end ? `${ids}-end-error` : undefined}
                onChange={field.onChange}
              />
            )}
          />
          <FieldError id={`${ids}-end-error`} message={errors.end?.message} />
        </>
      )}
    </>
  );
}
