import { useMemo, useState, type FormEvent } from 'react';
import { Button } from '../../ui/button.tsx';

/** The zones the browser knows (Intl), with the saved one kept even when this browser lacks it. */
function zoneChoices(saved: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const zones = new Set(['UTC', ...known, saved]);
  return [...zones].sort((a, b) => (a === 'UTC' ? -1 : b === 'UTC' ? 1 : a.localeCompare(b)));
}

export function deviceTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * The user's time zone (docs/product.md, Plans and limits: dates are formatted in it, UTC when none): the calendar's
 * today, its times and the Free plan's month are all read in it, on every device.
 */
export function TimeZoneForm({ saved, onSave }: { saved: string; onSave(zone: string): Promise<boolean> }) {
  const [draft, setDraft] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const zone = draft ?? saved;
  const choices = useMemo(() => zoneChoices(saved), [saved]);
  const device = deviceTimeZone();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    try {
      if (await onSave(zone)) setDraft(null);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} className="mt-4 grid gap-2">
      <label htmlFor="profile-time-zone" className="text-sm font-medium text-slate-700">
        Time zone
      </label>
      <select
        id="profile-time-zone"
        value={zone}
        onChange={(event) => setDraft(event.target.value)}
        className="rounded-lg border border-slate-300 px-3 py-2 text-sm"
      >
        {choices.map((choice) => (
          <option key={choice} value={choice}>
            {choice.replaceAll('_', ' ')}
          </option>
        ))}
      </select>
      <p className="text-xs text-slate-600">
        Your calendar shows times in this zone.
        {device !== zone && (
          <>
            {' '}
            This device is in {device.replaceAll('_', ' ')}.{' '}
            <button
              type="button"
              className="text-brand-700 dark:text-brand-300 underline"
              onClick={() => setDraft(device)}
            >
              Use it
            </button>
          </>
        )}
      </p>
      <div>
        <Button type="submit" variant="secondary" disabled={saving || zone === saved}>
          Save time zone
        </Button>
      </div>
    </form>
  );
}
