import { valibotResolver } from '@hookform/resolvers/valibot';
import { useId, useMemo, useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { useUserDb } from '../../data/user-db-context.ts';
import { Button } from '../../ui/button.tsx';
import {
  FieldError,
  FormActions,
  FormDialog,
  RefusalAlert,
  fieldInput as input,
  fieldLabel as label,
  useRefusal,
} from '../../ui/form-dialog.tsx';
import { toast } from '../../ui/toast-store.ts';
import {
  emptyPollForm,
  pollArgs,
  pollFormSchema,
  POLL_OPTIONS_MAX,
  POLL_OPTIONS_MIN,
  type PollFormValues,
} from './poll-form.ts';
import { TimePollFields } from './time-poll-fields.tsx';
import { appNow } from '../../backend/server-clock.ts';
import { DeadlineField } from './deadline-field.tsx';

export interface PollDialogProps {
  /** The directory of a team poll; none for a public poll. */
  directoryId?: string;
  timeZone: string;
  onClose(): void;
}

/** The server's fallback wording for a poll that could not be created. */
export const CREATE_FAILED = 'Failed to create poll. Please try again.';

type PollKind = 'choice' | 'time';
const KINDS: { kind: PollKind; label: string }[] = [
  { kind: 'choice', label: 'Options' },
  { kind: 'time', label: 'Find a time' },
];

/**
 * Create Poll / Create Team Poll (docs/product.md, Links screen; Polls; Find a time): the kind,
 * 'Options' or 'Find a time', then that kind's form.
 */
export function PollDialog({ directoryId, timeZone, onClose }: PollDialogProps) {
  const [kind, setKind] = useState<PollKind>('choice');
  const team = directoryId !== undefined;
  const submit = team ? 'Create Team Poll' : 'Create Poll';
  return (
    <FormDialog title={submit} description={`Times are in your time zone (${timeZone}).`} onClose={onClose}>
      <fieldset className="mt-4">
        <legend className="sr-only">Kind of poll</legend>
        <div className="inline-flex rounded-lg border border-slate-300 p-0.5">
          {KINDS.map((option) => (
            <label
              key={option.kind}
              className={`cursor-pointer rounded-md px-3 py-1.5 text-sm font-medium has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600 ${
                kind === option.kind ? 'bg-brand-600 text-white' : 'text-slate-800 hover:bg-slate-100'
              }`}
            >
              <input
                type="radio"
                name="poll-kind"
                value={option.kind}
                checked={kind === option.kind}
                onChange={() => setKind(option.kind)}
                className="sr-only"
              />
              {option.label}
            </label>
          ))}
        </div>
      </fieldset>
      {kind === 'time' ? (
        <TimePollFields
          directoryId={directoryId}
          timeZone={timeZone}
          submit={submit}
          onClose={onClose}
          failed={CREATE_FAILED}
        />
      ) : (
        <ChoicePollForm directoryId={directoryId} timeZone={timeZone} onClose={onClose} />
      )}
    </FormDialog>
  );
}

/** The 'Options' form (docs/product.md, Polls; Validation 'Poll'): title, description, 2 to 6 options (the first two required) and an optional deadline, read in the user's time zone. */
function ChoicePollForm({ directoryId, timeZone, onClose }: PollDialogProps) {
  const { mutate } = useUserDb();
  const ids = useId();
  const schema = useMemo(() => pollFormSchema({ timeZone, now: appNow }), [timeZone]);
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<PollFormValues>({
    resolver: valibotResolver(schema),
    defaultValues: emptyPollForm(),
    // Every field's problem at once (the options' rule shows even while the title is missing).
    criteriaMode: 'all',
  });
  const { fields, append, remove } = useFieldArray({ control, name: 'options' });
  const { refusal, show: refuse, clear: clearRefusal } = useRefusal();
  const team = directoryId !== undefined;
  const optionsError = errors.options?.root?.message ?? errors.options?.message;

  async function save(values: PollFormValues) {
    const args = pollArgs(values, { timeZone, id: crypto.randomUUID(), directoryId });
    clearRefusal();
    try {
      // A refusal (the Free quota, the plan) is shown in the dialog, in the words of docs/product.md.
      if ((await mutate('poll.create', args, refuse)) === null) return;
    } catch {
      toast(CREATE_FAILED, 'error');
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
      <fieldset aria-describedby={optionsError ? `${ids}-options-error` : undefined}>
        <legend className={label}>Options</legend>
        <ol className="mt-1 space-y-2">
          {fields.map((field, index) => {
            const error = errors.options?.[index]?.text?.message;
            return (
              <li key={field.id}>
                <div className="flex items-center gap-2">
                  <input
                    className="w-full rounded-lg border border-slate-300 px-3 py-2 aria-[invalid=true]:border-red-600"
                    aria-label={`Option ${index + 1}`}
                    placeholder={index < POLL_OPTIONS_MIN ? `Option ${index + 1}` : `Option ${index + 1} (optional)`}
                    aria-invalid={!!error || (!!optionsError && index < POLL_OPTIONS_MIN)}
                    {...register(`options.${index}.text`)}
                  />
                  {index >= POLL_OPTIONS_MIN && (
                    <Button
                      variant="ghost"
                      className="shrink-0 px-2"
                      aria-label={`Remove option ${index + 1}`}
                      onClick={() => remove(index)}
                    >
                      ✕
                    </Button>
                  )}
                </div>
                <FieldError id={`${ids}-option-${index}-error`} message={error} />
              </li>
            );
          })}
        </ol>
        <FieldError id={`${ids}-options-error`} message={optionsError} />
        <Button
          variant="secondary"
          className="mt-2"
          disabled={fields.length >= POLL_OPTIONS_MAX}
          onClick={() => append({ text: '' })}
        >
          Add Option
        </Button>
      </fieldset>
      <DeadlineField
        id={`${ids}-deadline-error`}
        timeZone={timeZone}
        error={errors.deadline?.message}
        field={register('deadline')}
      />
      <RefusalAlert refusal={refusal} />
      <FormActions submit={team ? 'Create Team Poll' : 'Create Poll'} busy={isSubmitting} onCancel={onClose} />
    </form>
  );
}
