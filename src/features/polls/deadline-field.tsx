import type { UseFormRegisterReturn } from 'react-hook-form';
import { appNow } from '../../backend/server-clock.ts';
import { toLocalInput } from '../../domain/event-times.ts';
import { FieldError, fieldInput as input, fieldLabel as label } from '../../ui/form-dialog.tsx';

/** A poll's 'Deadline (optional)' (both kinds of poll, docs/product.md, Polls): not earlier than now by the server's clock. */
export function DeadlineField({
  id,
  timeZone,
  error,
  field,
}: {
  id: string;
  timeZone: string;
  error: string | undefined;
  field: UseFormRegisterReturn;
}) {
  return (
    <>
      <label className={label}>
        Deadline (optional)
        <input
          type="datetime-local"
          className={input}
          min={toLocalInput(appNow(), timeZone)}
          aria-invalid={!!error}
          aria-describedby={error ? id : undefined}
          {...field}
        />
      </label>
      <FieldError id={id} message={error} />
    </>
  );
}
