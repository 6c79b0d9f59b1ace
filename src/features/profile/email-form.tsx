import { useId, useState, type FormEvent } from 'react';
import { isEmail } from '../../domain/validation.ts';
import { Button } from '../../ui/button.tsx';
import { requestEmailChange, useAuthEmail, useAuthEmailStore } from './auth-email.ts';

const sentText = (email: string) => `We sent a confirmation link to ${email}. Your address changes once you open it.`;

/**
 * The account's e-mail address on the Profile screen: a change is only
 * asked for; the address stays until the link mailed to the new one is opened.
 */
export function EmailForm({ fallback }: { fallback: string | null }) {
  const info = useAuthEmail();
  const setPending = useAuthEmailStore((state) => state.setPending);
  const current = info?.email ?? fallback ?? '';
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const value = draft ?? current;
  const unchanged = value.trim().toLowerCase() === current.toLowerCase();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const email = value.trim();
    if (!isEmail(email)) return setError('Please enter a valid email address.');
    setError(null);
    setBusy(true);
    const result = await requestEmailChange(email);
    setBusy(false);
    if (!result.ok) return setError(result.message);
    setPending(email);
    setDraft(null);
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="mt-4 grid gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        E-mail address
      </label>
      <div className="flex flex-wrap gap-2">
        <input
          id={id}
          type="email"
          autoComplete="email"
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-note`}
          onChange={(event) => {
            setDraft(event.target.value);
            setError(null);
          }}
          className="focus:border-brand-600 min-w-0 flex-1 rounded-lg border border-slate-300 px-3 py-2 text-sm outline-none"
        />
        <Button type="submit" variant="secondary" disabled={busy || unchanged}>
          Change e-mail
        </Button>
      </div>
      <div id={`${id}-note`}>
        {error && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {error}
          </p>
        )}
        <p role="status" className="text-sm text-slate-700 empty:hidden">
          {info?.newEmail ? sentText(info.newEmail) : ''}
        </p>
      </div>
    </form>
  );
}
