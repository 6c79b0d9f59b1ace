import { useId, useState, type FormEvent } from 'react';

interface Props {
  /** 'Wrong password.', a throttled try's message, or null. */
  error: string | null;
  busy: boolean;
  onSubmit: (password: string) => void;
}

/** Asks a visitor for a protected directory's password; the server checks it against the hash. */
export function DirectoryPasswordForm({ error, busy, onSubmit }: Props) {
  const [password, setPassword] = useState('');
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password !== '') onSubmit(password);
  };
  return (
    <form onSubmit={submit} className="mx-auto max-w-sm py-16" aria-label="Directory password">
      <h1 className="text-center text-xl font-semibold text-slate-900">This directory is password protected.</h1>
      <label htmlFor={id} className="mt-6 block text-sm font-medium text-slate-700">
        Password
      </label>
      <input
        id={id}
        type="password"
        autoComplete="off"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        aria-invalid={error ? true : undefined}
        className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2 focus:border-indigo-500 focus:outline-none"
      />
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      <button
        type="submit"
        disabled={busy || password === ''}
        className="mt-4 w-full rounded-lg bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700 disabled:opacity-50"
      >
        Open
      </button>
    </form>
  );
}
