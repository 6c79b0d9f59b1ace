import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useCurrentUser } from '../../backend/current-user-store.ts';
import { CONFIRMATION_PARAMS, confirmationMessage } from '../../domain/email-confirmation.ts';
import { toast } from '../../ui/toast-store.ts';

/**
 * A signed-in user who opened a confirmation link lands here (the route guard carries the
 * outcome from /Login): says it once in a toast, loads the account again (a confirmed new
 * address shows, the unconfirmed banner goes), and takes the parameters out of the address.
 */
export function ConfirmationOutcome() {
  const [search, setSearch] = useSearchParams();
  const message = confirmationMessage(search);
  const text = message?.text;
  const ok = message?.ok;
  useEffect(() => {
    if (!text) return;
    toast(text, ok ? 'success' : 'error');
    if (ok)
      void useCurrentUser
        .getState()
        .reload()
        .catch(() => undefined);
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        for (const name of CONFIRMATION_PARAMS) next.delete(name);
        return next;
      },
      { replace: true },
    );
  }, [text, ok, setSearch]);
  return null;
}
