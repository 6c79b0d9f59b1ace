import * as RadioGroup from '@radix-ui/react-radio-group';
import * as Switch from '@radix-ui/react-switch';
import { valibotResolver } from '@hookform/resolvers/valibot';
import { lazy, Suspense, useEffect, useId, useMemo, type ComponentType } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router-dom';
import type { EventRow } from '../../data/rows.ts';
import { useUserDb } from '../../data/user-db-context.ts';
import { endAfterStartChange, toLocalInput } from '../../domain/event-times.ts';
import type { Tier } from '../../domain/plans.ts';
import {
  FieldError,
  FormActions,
  FormDialog,
  RefusalAlert,
  fieldInput as input,
  fieldLabel as label,
  useRefusal,
} from '../../ui/form-dialog.tsx';
import type { PlanLimit } from '../../ui/limit-notice.tsx';
import { toast } from '../../ui/toast-store.ts';
import { failureText, type CalendarScreen } from './calendar-messages.ts';
import { EventTimeFields } from './event-time-fields.tsx';
import { ReminderField } from './reminder-field.tsx';
import { eventFormSchema, planSave, type EventFormValues } from './event-form.ts';
import { initialValues } from './event-form-initial.ts';
import { reminderToInput } from '../../domain/reminder-choices.ts';
import type { PlanFieldProps } from './plan-field.tsx';
import type { PlanValues } from './plan-values.ts';
import { appNow } from '../../backend/server-clock.ts';

/**
 * The typed plan's field and its parser, a chunk of their own: in no screen's first load, fetched
 * while the screen is idle (`preloadPlanField`, so an offline dialog has it), and where it could
 * not be fetched the dialog opens without the field rather than failing (the next load tries again).
 */
let planField: Promise<{ default: ComponentType<PlanFieldProps> }> | null = null;
export function preloadPlanField() {
  planField ??= import('./plan-field.tsx').catch(() => {
    planField = null;
    return { default: () => null };
  });
  return planField;
}
const PlanField = lazy(preloadPlanField);

export interface EventDialogProps {
  /** The item to edit, or null to add one. */
  item: EventRow | null;
  tier: Tier;
  timeZone: string;
  screen: CalendarScreen;
  /** A new item's start ('YYYY-MM-DDTHH:mm' local), e.g. from a day picked on the grid. */
  start?: string;
  /** A new item starts as a task. */
  task?: boolean;
  /** A phrase typed elsewhere (the command palette): the 'Type a plan' field starts with it and its preview. */
  plan?: string;
  /** The profile's default reminder, which a new item starts with. */
  defaultReminder?: number | null;
  /** The month's events limit, when it is already reached: said while the item is an event (tasks are not limited). */
  eventLimit?: PlanLimit | null;
  onClose(): void;
}

const radio =
  'flex h-4 w-4 items-center justify-center rounded-full border border-slate-400 bg-surface focus-visible:outline-2 focus-visible:outline-brand-600 data-[state=checked]:border-brand-600';

/**
 * Add or edit an event or task (docs/product.md, Calendar; Validation), shared by Calendar and Upcoming. Radix gives
 * the dialog its focus trap and Escape, the switch and radio groups their keyboard behaviour;
 * react-hook-form with the valibot schema checks the fields, and `planSave` decides what is sent.
 */
export function EventDialog({
  item,
  tier,
  timeZone,
  screen,
  start,
  task = false,
  plan,
  defaultReminder,
  eventLimit,
  onClose,
}: EventDialogProps) {
  const { mutate } = useUserDb();
  const ids = useId();
  const defaults = useMemo(
    () => initialValues(item, timeZone, start, defaultReminder, task),
    [item, timeZone, start, defaultReminder, task],
  );
  const {
    register,
    control,
    handleSubmit,
    setValue,
    setError,
    clearErrors,
    getFieldState,
    formState: { errors, isSubmitting },
  } = useForm<EventFormValues>({
    resolver: valibotResolver(eventFormSchema),
    defaultValues: defaults,
    // Every field's problem at once: the cross-field checks (start, end, repeat-until) run even
    // while the title is missing (the resolver stops a pipe at its first issue otherwise).
    criteriaMode: 'all',
  });
  // The profile's default may arrive after the dialog opened (the screen's first read): a new
  // item takes it unless the reminder was already chosen.
  useEffect(() => {
    if (item || getFieldState('reminder').isDirty) return;
    setValue('reminder', reminderToInput(defaultReminder));
  }, [item, defaultReminder, getFieldState, setValue]);
  const [isTask, repeat, scope, startValue] = useWatch({ control, name: ['isTask', 'repeat', 'scope', 'start'] });
  const inSeries = item?.series_id != null;
  const paid = tier !== 'free';
  const minimum = toLocalInput(appNow(), timeZone);
  // docs/product.md, Validation: the rule and repeat-until are disabled while editing one occurrence of a series.
  const repeatLocked = inSeries && scope === 'single';
  const { refusal, show: refuse, clear: clearRefusal } = useRefusal();

  // 'Use this' on a typed plan: its fields replace the form's, which the user can still correct.
  function usePlanValues(values: PlanValues) {
    for (const [name, value] of Object.entries(values) as [keyof PlanValues, PlanValues[keyof PlanValues]][]) {
      setValue(name, value, { shouldDirty: true });
    }
    clearErrors();
  }

  async function save(values: EventFormValues) {
    const plan = planSave(values, item, { timeZone, now: appNow(), newId: () => crypto.randomUUID() });
    if (!plan.ok) {
      setError(plan.field, { message: plan.error });
      return;
    }
    clearRefusal();
    try {
      for (const { name, args } of plan.steps) {
        // A refusal is shown in the dialog (the words of docs/product.md) and stops the rest.
        if ((await mutate(name, args, refuse)) === null) return;
      }
    } catch {
      toast(failureText[screen].save, 'error');
      return;
    }
    onClose();
  }

  return (
    <FormDialog
      title={item ? (item.is_task ? 'Edit Task' : 'Edit Event') : 'Add Event or Task'}
      description={`Times are in your time zone (${timeZone}).`}
      limit={isTask || item?.is_task === false ? null : eventLimit}
      onClose={onClose}
    >
      <form className="mt-4 space-y-4" onSubmit={(e) => void handleSubmit(save)(e)} noValidate>
        {!item && (
          <Suspense fallback={null}>
            <PlanField timeZone={timeZone} paid={paid} initialText={plan} onUse={usePlanValues} />
          </Suspense>
        )}
        {inSeries && (
          <Controller
            control={control}
            name="scope"
            render={({ field }) => (
              <fieldset>
                <legend className="sr-only">Which events to update</legend>
                <RadioGroup.Root
                  className="space-y-2 rounded-lg bg-slate-50 p-3"
                  value={field.value}
                  onValueChange={field.onChange}
                >
                  {(
                    [
                      ['single', 'Update this event only'],
                      ['all', 'Update all events in this series'],
                    ] as const
                  ).map(([value, text]) => (
                    <div key={value} className="flex items-center gap-2">
                      <RadioGroup.Item id={`${ids}-scope-${value}`} value={value} className={radio}>
                        <RadioGroup.Indicator className="h-2 w-2 rounded-full bg-brand-600" />
                      </RadioGroup.Item>
                      <label htmlFor={`${ids}-scope-${value}`} className="text-sm text-slate-800">
                        {text}
                      </label>
                    </div>
                  ))}
                  {scope === 'all' && (
                    <p className="text-sm text-amber-800 dark:text-amber-200">
                      This will delete the old series and create a new one.
                    </p>
                  )}
                </RadioGroup.Root>
              </fieldset>
            )}
          />
        )}
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
          <textarea className={input} rows={3} {...register('description')} />
        </label>
        <Controller
          control={control}
          name="isTask"
          render={({ field }) => (
            <div className="flex items-center gap-3">
              <Switch.Root
                id={`${ids}-task`}
                checked={field.value}
                disabled={inSeries}
                onCheckedChange={(checked) => {
                  field.onChange(checked);
                  if (checked && startValue !== '') setValue('end', startValue);
                  if (!checked && startValue !== '') setValue('end', endAfterStartChange(startValue, false, timeZone));
                }}
                className="relative h-6 w-11 rounded-full bg-slate-300 transition-colors focus-visible:outline-2 focus-visible:outline-brand-600 disabled:opacity-50 data-[state=checked]:bg-brand-600"
              >
                <Switch.Thumb className="block h-5 w-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[1.375rem]" />
              </Switch.Root>
              <label htmlFor={`${ids}-task`} className="text-sm font-medium text-slate-800">
                This is a task
              </label>
            </div>
          )}
        />
        {isTask && (
          <label className={label}>
            Priority
            <select className={input} {...register('priority')}>
              <option value="low">Low</option>
              <option value="medium">Medium</option>
              <option value="high">High</option>
            </select>
          </label>
        )}
        <EventTimeFields ids={ids} control={control} setValue={setValue} errors={errors} timeZone={timeZone} />
        <ReminderField registration={register('reminder')} />
        {!isTask && (
          <section aria-labelledby={`${ids}-repeat`} className="rounded-lg border border-slate-200 p-3">
            <h3 id={`${ids}-repeat`} className="text-sm font-semibold text-slate-900">
              Repeat
            </h3>
            {paid ? (
              <div className="mt-2 grid grid-cols-2 gap-3">
                <label className={label}>
                  Rule
                  <select className={input} disabled={repeatLocked} {...register('repeat')}>
                    <option value="none">Does not repeat</option>
                    <option value="daily">Daily</option>
                    <option value="weekly">Weekly</option>
                    <option value="monthly">Monthly</option>
                  </select>
                </label>
                {repeat !== 'none' && (
                  <label className={label}>
                    Repeat until
                    <input
                      type="date"
                      className={input}
                      disabled={repeatLocked}
                      min={startValue.slice(0, 10) || minimum.slice(0, 10)}
                      aria-invalid={!!errors.until}
                      aria-describedby={errors.until ? `${ids}-until-error` : undefined}
                      {...register('until')}
                    />
                  </label>
                )}
                <div className="col-span-2">
                  <FieldError id={`${ids}-until-error`} message={errors.until?.message} />
                </div>
              </div>
            ) : (
              <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
                <p className="text-sm text-slate-700">Recurring events are a Pro feature.</p>
                <Link
                  to="/Upgrade"
                  className="rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700"
                >
                  Upgrade to Pro
                </Link>
              </div>
            )}
          </section>
        )}
        <RefusalAlert refusal={refusal} />
        <FormActions
          submit={item ? 'Save Changes' : isTask ? 'Add Task' : 'Add Event'}
          busy={isSubmitting}
          onCancel={onClose}
        />
      </form>
    </FormDialog>
  );
}
