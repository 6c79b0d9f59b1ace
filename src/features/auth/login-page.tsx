import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import {
  claimUsername,
  hasSession,
  isUsernameAvailable,
  signInWithPassword,
  signUpWithPassword,
} from '../../backend/auth.ts';
import { useCurrentUser } from '../../backend/current-user-store.ts';
import { rememberUsername } from '../../backend/remembered-username.ts';
import { returnPath } from '../../domain/route-rules.ts';
import { sanitizeUsername } from '../../domain/username.ts';
import { Button } from '../../ui/button.tsx';
import { usePageTitle } from '../../ui/page-title.ts';
import { PAGES } from '../../domain/pages.ts';
import { ConfirmationNotice } from './confirmation-notice.tsx';
import { loginFieldErrors, type FieldErrors, type LoginMode } from './login-fields.ts';
import { signUp } from './sign-up-flow.ts';
import { TextField } from './text-field.tsx';

export function LoginPage() {
  // '?mode=sign-up': a 'Create your free account' call opens the sign-up form.
  const [search] = useSearchParams();
  const [mode, setMode] = useState<LoginMode>(search.get('mode') === 'sign-up' ? 'sign-up' : 'sign-in');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [username, setUsername] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();
  // Where the visitor was going when they were asked to sign in (a page shared into the app).
  const next = returnPath(useLocation().search);
  const reload = useCurrentUser((state) => state.reload);
  usePageTitle(mode === 'sign-in' ? PAGES.login.title : 'Create account');

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const invalid = loginFieldErrors(mode, { email, password, username });
    setFieldErrors(invalid);
    if (Object.keys(invalid).length > 0) return;
    setBusy(true);
    try {
      if (mode === 'sign-up') {
        const outcome = await signUp(
          {
            isUsernameAvailable,
            hasSession,
            signUp: signUpWithPassword,
            loadUser: reload,
            claimUsername,
            rememberUsername,
          },
          { email, password, username },
        );
        if (!outcome.ok) return setError(outcome.message);
        await reload();
        navigate(next ?? `/Dashboard/${outcome.username}`, { replace: next !== null });
      } else {
        const result = await signInWithPassword(email.trim(), password);
        if (!result.ok) return setError(result.message);
        const user = await reload();
        if (user?.username) rememberUsername(user.username);
        navigate(next ?? (user?.username ? `/Dashboard/${user.username}` : '/Dashboard'), { replace: next !== null });
      }
    } finally {
      setBusy(false);
    }
  }

  const signingUp = mode === 'sign-up';
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 px-4">
      <div className="w-full max-w-sm rounded-2xl bg-surface p-8 shadow-sm ring-1 ring-slate-200">
        <a href="/" className="text-brand-700 dark:text-brand-300 text-sm font-semibold">
          Linkboard
        </a>
        <h1 className="mt-2 text-2xl font-bold">{signingUp ? 'Create your account' : 'Welcome back'}</h1>
        <ConfirmationNotice search={search} />
        <form className="mt-6 flex flex-col gap-4" onSubmit={submit} noValidate>
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={setEmail}
            error={fieldErrors.email}
            required
          />
          <TextField
            label="Password"
            type="password"
            autoComplete={signingUp ? 'new-password' : 'current-password'}
            value={password}
            onChange={setPassword}
            hint={signingUp ? 'We recommend 8 or more characters.' : undefined}
            error={fieldErrors.password}
            required
          />
          {signingUp && (
            <TextField
              label="Username"
              autoComplete="username"
              value={username}
              onChange={(value) => setUsername(sanitizeUsername(value))}
              hint="Letters, digits, underscore and hyphen."
              error={fieldErrors.username}
              required
            />
          )}
          {error && (
            <p
              role="alert"
              className="rounded-lg bg-red-50 dark:bg-red-950/40 px-3 py-2 text-sm text-red-700 dark:text-red-300"
            >
              {error}
            </p>
          )}
          <Button type="submit" disabled={busy}>
            {signingUp ? 'Create account' : 'Sign in'}
          </Button>
        </form>
        <p className="mt-6 text-center text-sm text-slate-600">
          {signingUp ? 'Already have an account?' : 'New to Linkboard?'}{' '}
          <button
            type="button"
            className="text-brand-700 dark:text-brand-300 font-medium underline"
            onClick={() => {
              setMode(signingUp ? 'sign-in' : 'sign-up');
              setError(null);
              setFieldErrors({});
            }}
          >
            {signingUp ? 'Sign in' : 'Create an account'}
          </button>
        </p>
      </div>
    </main>
  );
}
