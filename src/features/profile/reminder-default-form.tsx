/**
 * The profile's 'Default reminder': the reminder new events and tasks start with.
 * Choosing one asks for notification permission when the browser has not been asked yet, and
 * says so when notifications are blocked.
 */
import { useState, type FormEvent } from 'react';
import { reminderChoices, reminderFromInput, reminderToInput } from '../../domain/reminder-choices.ts';
import type { ReminderOffset } from '../../domain/validation.ts';
import { Button } from '../../ui/button.tsx';
import { NOTIFICATIONS_BLOCKED, useNotificationPermission } from '../../ui/notification-permission.ts';

export interface ReminderDefaultFormProps {
  /** The saved default in minutes; null: none. */
  saved: number | null;
  onSave(minutes: ReminderOffset | null): Promise<boolean>;
}

export function ReminderDefaultForm({ saved, onSave }: ReminderDefaultFormProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const permission = useNotificationPermission();
  const value = draft ?? reminderToInput(saved);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    try {
      if (await onSave(reminderFromInput(value))) setDraft(null);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} className="mt-4 grid gap-2">
      <label htmlFor="profile-default-reminder" className="text-sm font-medium text-slate-700">
        Default reminder
      </label>
      <select
        id="profile-default-reminder"
        value={value}
        onChange={(event) => {
          setDraft(event.target.value);
          if (event.target.value !== '') permission.reminderTurnedOn();
        }}
        className="rounded-lg border border-slate-300 px-3 py-2 text-sm"
      >
        {reminderChoices.map((choice) => (
          <option key={choice.label} value={reminderToInput(choice.value)}>
            {choice.label}
          </option>
        ))}
      </select>
      <p className="text-xs text-slate-600">New events and tasks start with this reminder.</p>
      {permission.blocked && (
        <p role="status" className="text-sm text-amber-800 dark:text-amber-200">
          {NOTIFICATIONS_BLOCKED}
        </p>
      )}
      <div>
        <Button type="submit" variant="secondary" disabled={saving || value === reminderToInput(saved)}>
          Save default reminder
        </Button>
      </div>
    </form>
  );
}
