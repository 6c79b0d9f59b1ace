/**
 * The outcome of a mailed confirmation link, as the auth server's redirect names it
 * (?confirmed=signup|email or ?confirm_error=invalid|taken): codes, worded here, so no text in
 * a URL reaches the page.
 */
export interface ConfirmationOutcome {
  ok: boolean;
  text: string;
}

export const CONFIRMATION_PARAMS = ['confirmed', 'confirm_error'] as const;

export function confirmationMessage(search: URLSearchParams): ConfirmationOutcome | null {
  const confirmed = search.get('confirmed');
  if (confirmed === 'signup') return { ok: true, text: 'Your e-mail address is confirmed.' };
  if (confirmed === 'email') return { ok: true, text: 'Your new e-mail address is confirmed.' };
  const error = search.get('confirm_error');
  if (error === 'taken') return { ok: false, text: 'Another account uses this e-mail address now.' };
  if (error !== null)
    return { ok: false, text: 'This confirmation link is invalid or has expired. Ask for a new one.' };
  return null;
}

/** The confirmation parameters of `search`, to carry onto the page a signed-in user is sent to. */
export function confirmationQuery(search: string): string {
  const from = new URLSearchParams(search);
  const kept = new URLSearchParams();
  for (const name of CONFIRMATION_PARAMS) {
    const value = from.get(name);
    if (value !== null) kept.set(name, value.slice(0, 20));
  }
  const query = kept.toString();
  return query ? `?${query}` : '';
}
