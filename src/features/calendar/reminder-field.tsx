/**
 * The event dialog's 'Reminder' select. Choosing a reminder asks for notification
 * permission when the browser has not been asked yet, and says so when notifications are blocked.
 */
import type { UseFormRegisterReturn } from 'react-hook-form';
import { reminderChoices, reminderToInput } from '../../domain/reminder-choices.ts';
import { fieldInput as input, fieldLabel as label } from '../../ui/form-dialog.tsx';
import { NOTIFICATIONS_BLOCKED, useNotificationPermission } from '../../ui/notification-permission.ts';

export function ReminderField({ registration }: { registration: UseFormRegisterReturn<'reminder'> }) {
  const permission = useNotificationPermission();
  return (
    <div>
      <label className={label}>
        Reminder
        <select
          className={input}
          {...registration}
          onChange={(event) => {
            if (event.target.value !== '') permission.reminderTurnedOn();
            return registration.onChange(event);
          }}
        >
          {reminderChoices.map((choice) => (
            <option key={choice.label} value={reminderToInput(choice.value)}>
              {choice.label}
            </option>
          ))}
        </select>
      </label>
      {permission.blocked && (
        <p role="status" className="mt-1 text-sm text-amber-800 dark:text-amber-200">
          {NOTIFICATIONS_BLOCKED}
        </p>
      )}
    </div>
  );
}
