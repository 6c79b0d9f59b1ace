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
      className="mb-4 flex flex-wrap items-center gap-x-4 gap-y-2 rounded-xl border border-sky-200 bg-sky-50 px-4 py-3 text-sm text-sky-950"
    >
      <p className="min-w-0 flex-1 basis-64">
        Confirm your e-mail address: we sent a link to <strong className="break-all">{email}</strong>. Directories
        shared with you appear once it is confirmed.
      </p>
      <button
        type="button"
        disabled={busy}
        onClick={() => void resend()}
        className="rounded-lg border border-sky-300 bg-white px-3 py-1.5 font-medium text-sky-900 hover:bg-sky-100 disabled:opacity-60"
      >
        Send the link again
      </button>
      {/* Present before the answer, so the answer is announced. */}
      <p role="status" className={`w-full empty:hidden ${sent?.ok === false ? 'text-red-700' : 'text-sky-900'}`}>
        {sent ? (sent.ok ? 'Link sent.' : sent.message) : ''}
      </p>
    </section>
  );
}
