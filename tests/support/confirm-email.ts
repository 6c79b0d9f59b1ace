/**
 * Confirms an account's e-mail address the way a person does: reads the confirmation mail the
 * stack queued for the address (/_mailbox/messages.json) and opens its link. Sign-ups start
 * unconfirmed, and directory invitations bind only to confirmed addresses.
 */
type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

interface Mail {
  to: string;
  subject: string;
  body: string;
}

/** The newest link to /auth/v1/verify mailed to the address, of the given type. */
export async function verifyLinkFor(
  fetchFn: Fetch,
  base: string,
  email: string,
  type: 'signup' | 'email_change' = 'signup',
): Promise<string> {
  const response = await fetchFn(`${base}/_mailbox/messages.json?to=${encodeURIComponent(email)}`);
  const mails = (await response.json()) as Mail[];
  for (const mail of mails) {
    const link = /https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(mail.body)?.[0];
    if (link && new URL(link).searchParams.get('type') === type) return link;
  }
  throw new Error(`no ${type} confirmation mail to ${email}`);
}

/** Opens the link (on the given base, whatever origin the mail names) and returns where it redirects. */
export async function openVerifyLink(fetchFn: Fetch, base: string, link: string): Promise<URL> {
  const url = new URL(link);
  const response = await fetchFn(`${base}${url.pathname}${url.search}`, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (response.status !== 303 || !location) throw new Error(`verify answered ${response.status}`);
  return new URL(location);
}

export async function confirmEmail(fetchFn: Fetch, base: string, email: string): Promise<void> {
  const target = await openVerifyLink(fetchFn, base, await verifyLinkFor(fetchFn, base, email));
  if (target.searchParams.get('confirmed') !== 'signup') {
    throw new Error(`confirmation of ${email} failed: ${target.searchParams.get('confirm_error')}`);
  }
}
