import { useCurrentUser } from '../backend/current-user-store.ts';
import { AppShell } from './shell/app-shell.tsx';

/** The workspace: shown once the user is known; the guard moves visitors away. */
export function SignedInArea() {
  const status = useCurrentUser((state) => state.status);
  const user = useCurrentUser((state) => state.user);
  if (status !== 'signed-in' || !user) {
    return (
      <div role="status" aria-label="Loading" className="flex min-h-screen items-center justify-center">
        <span className="border-brand-600 h-8 w-8 animate-spin rounded-full border-4 border-t-transparent" />
      </div>
    );
  }
  return <AppShell user={user} />;
}
