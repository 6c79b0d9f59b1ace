import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { useCurrentUser } from '../../backend/current-user-store.ts';

/**
 * What the mailed confirmation link's redirect says (/Login?confirmed=signup|email or
 * ?confirm_error=invalid|taken): codes from the auth server, worded here, so no text in a URL
 * reaches the page.
 */
export function confirmationMessage(search: URLSearchParams): { ok: boolean; text: string } | null {
  const confirmed = search.get('confirmed');
  if (confirmed === 'signup') return { ok: true, text: 'Your e-mail address is confirmed.' };
  if (confirmed === 'email') return { ok: true, text: 'Your new e-mail address is confirmed.' };
  const error = search.get('confirm_error');
  if (error === 'taken') return { ok: false, text: 'Another account uses this e-mail address now.' };
  if (error !== null) {
    return { ok: false, text: 'This confirmation link is invalid or has expired. Ask for a new one.' };
  }
  return null;
}

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
      className={`mt-4 rounded-lg px-3 py-2 text-sm ${message.ok ? 'bg-emerald-50 text-emerald-800' : 'bg-red-50 text-red-700'}`}
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
