import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { useCurrentUser } from '../../backend/current-user-store.ts';
import { confirmationMessage } from '../../domain/email-confirmation.ts';

/** The confirmation link's outcome on the Login page (a signed-out visitor who opened it). */
export function ConfirmationNotice({ search }: { search: URLSearchParams }) {
  const message = confirmationMessage(search);
  const user = useCurrentUser((state) => state.user);
  const reload = useCurrentUser((state) => state.reload);
  const shown = message !== null;
  // A confirmed address (a new one included) shows in the account once it is loaded again.
  useEffect(() => {
    if (shown) void reload().catch(() => undefined);
  }, [shown, reload]);
  if (!message) return null;
  const home = user?.username ? `/Dashboard/${user.username}` : '/Dashboard';
  return (
    <div
      role={message.ok ? 'status' : 'alert'}
      className={`mt-4 rounded-lg px-3 py-2 text-sm ${message.ok ? 'bg-emerald-50 dark:bg-emerald-950/40 text-emerald-800 dark:text-emerald-200' : 'bg-red-50 dark:bg-red-950/40 text-red-700 dark:text-red-300'}`}
    >
      {message.text}{' '}
      {user ? (
        <Link to={home} className="font-medium underline">
          Continue to your dashboard
        </Link>
      ) : (
        message.ok && 'Sign in to continue.'
      )}
    </div>
  );
}
