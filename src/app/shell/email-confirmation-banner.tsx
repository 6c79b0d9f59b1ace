import { useEffect, useRef, useState } from 'react';
import { resendConfirmation, useAuthEmail } from '../../features/profile/auth-email.ts';
import { useUserSession } from '../sync/user-session.ts';

type Sent = { ok: true } | { ok: false; message: string } | null;

/**
 * While the account's address is unconfirmed: says where the link went and
 * offers to send it again. Gone once confirmed; then a sync brings the directories shared with
 * the address.
 */
export function EmailConfirmationBanner() {
  const info = useAuthEmail();
  const [sent, setSent] = useState<Sent>(null);
  const [busy, setBusy] = useState(false);
  const unconfirmed = !!info && !info.confirmed && !!info.email;
  const wasUnconfirmed = useRef(false);

  useEffect(() => {
    if (unconfirmed) wasUnconfirmed.current = true;
    else if (info?.confirmed && wasUnconfirmed.current) {
      wasUnconfirmed.current = false;
      void useUserSession
        .getState()
        .session?.engine.sync()
        .catch(() => undefined);
    }
  }, [unconfirmed, info?.confirmed]);

  if (!unconfirmed || !info.email) return null;
  const email = info.email;

  const resend = async () => {
    setBusy(true);
    setSent(null);
    setSent(await resendConfirmation(email));
    setBusy(false);
  };

  return (
    <section
      aria-label="Confirm your e-mail address"
      className="mb-4 flex flex-wrap items-center gap-x-4 gap-y-2 rounded-xl border border-sky-200 dark:border-sky-800 bg-sky-50 dark:bg-sky-950/40 px-4 py-3 text-sm text-sky-950 dark:text-sky-100"
    >
      <p className="min-w-0 flex-1 basis-64">
        Confirm your e-mail address: we sent a link to <strong className="break-all">{email}</strong>. Directories
        shared with you appear once it is confirmed.
      </p>
      <button
        type="button"
        disabled={busy}
        onClick={() => void resend()}
        className="rounded-lg border border-sky-300 dark:border-sky-700 bg-surface px-3 py-1.5 font-medium text-sky-900 dark:text-sky-100 hover:bg-sky-100 dark:hover:bg-sky-900/50 disabled:opacity-60"
      >
        Send the link again
      </button>
      {/* Present before the answer, so the answer is announced. */}
      <p
        role="status"
        className={`w-full empty:hidden ${sent?.ok === false ? 'text-red-700 dark:text-red-300' : 'text-sky-900 dark:text-sky-100'}`}
      >
        {sent ? (sent.ok ? 'Link sent.' : sent.message) : ''}
      </p>
    </section>
  );
}
