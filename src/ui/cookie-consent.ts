/**
 * The cookie-consent record of docs/product.md, Records ('lb_cookie_consent' in localStorage:
 * {ads, analytics, ts}). Reading never throws: a missing, malformed or unreadable
 * record counts as "no choice yet", so the banner asks again.
 */

export const CONSENT_KEY = 'lb_cookie_consent';

/** Fired on window when the choice changes in this tab. */
export const CONSENT_EVENT = 'lb-cookie-consent-change';

export interface CookieConsent {
  ads: boolean;
  analytics: boolean;
  /** When the choice was made, in milliseconds since the epoch. */
  ts: number;
}

export type ConsentChoice = Pick<CookieConsent, 'ads' | 'analytics'>;

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // access itself can throw when storage is disabled
  }
}

/** Parses a stored value; anything but a well-formed record gives null. */
export function parseConsent(raw: string | null): CookieConsent | null {
  if (raw === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { ads, analytics, ts } = value as Record<string, unknown>;
  if (typeof ads !== 'boolean' || typeof analytics !== 'boolean') return null;
  if (typeof ts !== 'number' || !Number.isFinite(ts)) return null;
  return { ads, analytics, ts };
}

/** The stored choice, or null when there is none (or it cannot be read). */
export function readConsent(): CookieConsent | null {
  try {
    return parseConsent(storage()?.getItem(CONSENT_KEY) ?? null);
  } catch {
    return null;
  }
}

function announce(): void {
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(CONSENT_EVENT));
}

/** Stores a choice and returns the record; a storage failure still returns it. */
export function writeConsent(choice: ConsentChoice, now: number = Date.now()): CookieConsent {
  const record: CookieConsent = { ads: choice.ads, analytics: choice.analytics, ts: now };
  try {
    storage()?.setItem(CONSENT_KEY, JSON.stringify(record));
  } catch {
    // Quota or disabled storage: the choice holds for this page only.
  }
  announce();
  return record;
}

/** Forgets the choice, so the banner asks again (withdrawing consent). */
export function clearConsent(): void {
  try {
    storage()?.removeItem(CONSENT_KEY);
  } catch {
    // Nothing stored that we can reach.
  }
  announce();
}

/** Calls listener when the choice changes in this tab or another; returns the unsubscribe. */
export function onConsentChange(listener: () => void): () => void {
  if (typeof window === 'undefined') return () => {};
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === CONSENT_KEY) listener();
  };
  window.addEventListener(CONSENT_EVENT, listener);
  window.addEventListener('storage', onStorage);
  return () => {
    window.removeEventListener(CONSENT_EVENT, listener);
    window.removeEventListener('storage', onStorage);
  };
}
