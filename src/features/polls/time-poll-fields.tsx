import { valibotResolver } from '@hookform/resolvers/valibot';
import { useId, useMemo } from 'react';
import { useFieldArray, useForm, useWatch } from 'react-hook-form';
import { useUserDb } from '../../data/user-db-context.ts';
import { formatClock } from '../../domain/date-format.ts';
import { SLOT_LENGTHS } from '../../domain/time-slots.ts';
import { Button } from '../../ui/button.tsx';
import {
  FieldError,
  FormActions,
  RefusalAlert,
  fieldInput as input,
  fieldLabel as label,
  useRefusal,
} from '../../ui/form-dialog.tsx';
import { toast } from '../../ui/toast-store.ts';
import {
  emptySlotRow,
  emptyTimePollForm,
  isSlotRowValid,
  timePollArgs,
  timePollFormSchema,
  TIME_SLOTS_MAX,
  type TimePollFormValues,
} from './time-poll-form.ts';
import { appNow } from '../../backend/server-clock.ts';
import { DeadlineField } from './deadline-field.tsx';

export interface TimePollFieldsProps {
  directoryId?: string;
  timeZone: string;
  submit: string;
  onClose(): void;
  /** What the dialog says when the save failed for another reason than a refusal. */
  failed: string;
}

const small = 'rounded-lg border border-slate-300 px-2 py-1.5 text-sm aria-[invalid=true]:border-red-600';

/**
 * The 'Find a time' form of the poll dialog (docs/product.md, Find a time): title, description, the
 * slot editor (date, time, length or 'All day'; up to 30, each removable) and a deadline.
 */
export function TimePollFields({ directoryId, timeZone, submit, onClose, failed }: TimePollFieldsProps) {
  const { mutate } = useUserDb();
  const ids = useId();
  const schema = useMemo(() => timePollFormSchema({ timeZone, now: appNow }), [timeZone]);
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitting, isSubmitted },
  } = useForm<TimePollFormValues>({
    resolver: valibotResolver(schema),
    defaultValues: emptyTimePollForm(),
    criteriaMode: 'all',
  });
  const { fields, append, remove } = useFieldArray({ control, name: 'slots' });
  const rows = useWatch({ control, name: 'slots' });
  const { refusal, show: refuse, clear: clearRefusal } = useRefusal();
  const slotsError = errors.slots?.root?.message ?? errors.slots?.message;

  async function save(values: TimePollFormValues) {
    const args = timePollArgs(values, {
      timeZone,
      id: crypto.randomUUID(),
      directoryId,
      makeId: () => crypto.randomUUID(),
    });
    clearRefusal();
    try {
      if ((await mutate('poll.create_time', args, refuse)) === null) return;
    } catch {
      toast(failed, 'error');
      return;
    }
    onClose();
  }

  return (
    <form className="mt-4 space-y-4" onSubmit={(e) => void handleSubmit(save)(e)} noValidate>
      <label className={label}>
        Title
        <input
          className={input}
          aria-invalid={!!errors.title}
          aria-describedby={errors.title ? `${ids}-title-error` : undefined}
          {...register('title')}
        />
      </label>
      <FieldError id={`${ids}-title-error`} message={errors.title?.message} />
      <label className={label}>
        Description
        <textarea className={input} rows={2} {...register('description')} />
      </label>
      <fieldset aria-describedby={slotsError ? `${ids}-slots-error` : undefined}>
        <legend className={label}>Time slots</legend>
        <ol className="mt-1 space-y-2">
          {fields.map((field, index) => {
            const row = rows[index];
            const allDay = row?.allDay ?? false;
            const invalid = isSubmitted && !!row && !isSlotRowValid(row, timeZone);
            const n = index + 1;
            return (
              <li key={field.id} className="flex flex-wrap items-center gap-2">
                <input
                  type="date"
                  className={small}
                  aria-label={`Slot ${n} date`}
                  aria-invalid={invalid}
                  {...register(`slots.${index}.date`)}
                />
                <input
                  className={`${small} w-24`}
                  aria-label={`Slot ${n} time`}
                  placeholder={formatClock('09:00')}
                  disabled={allDay}
                  aria-invalid={invalid && !allDay}
                  {...register(`slots.${index}.time`)}
                />
                <select
                  className={small}
                  aria-label={`Slot ${n} length`}
                  disabled={allDay}
                  {...register(`slots.${index}.minutes`)}
                >
                  {SLOT_LENGTHS.map((length) => (
                    <option key={length.minutes} value={String(length.minutes)}>
                      {length.label}
                    </option>
                  ))}
                </select>
                <label className="flex items-center gap-1 text-sm text-slate-800">
                  <input type="checkbox" {...register(`slots.${index}.allDay`)} />
                  All day
                </label>
                <Button variant="ghost" className="px-2" aria-label={`Remove slot ${n}`} onClick={() => remove(index)}>
                  ✕
                </Button>
              </li>
            );
          })}
        </ol>
        <FieldError id={`${ids}-slots-error`} message={slotsError} />
        <Button
          variant="secondary"
          className="mt-2"
          disabled={fields.length >= TIME_SLOTS_MAX}
          onClick={() => append(emptySlotRow())}
        >
          Add Slot
        </Button>
      </fieldset>
      <DeadlineField
        id={`${ids}-deadline-error`}
        timeZone={timeZone}
        error={errors.deadline?.message}
        field={register('deadline')}
      />
      <RefusalAlert refusal={refusal} />
      <FormActions submit={submit} busy={isSubmitting} onCancel={onClose} />
    </form>
  );
}
