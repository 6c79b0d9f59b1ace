import type { LinkboardClient } from './page-client.ts';

/** The current user as the app knows it: the auth account plus its profile. */
export interface CurrentUser {
  id: string;
  email: string | null;
  username: string | null;
  full_name: string | null;
  bio: string | null;
  subscription_tier: string | null;
  time_zone: string | null;
  /** When the profile row last changed (absent in profiles cached by older versions). */
  updated_at?: string | null;
}

/** The backend could not be reached (offline, DNS, 5xx): the session is not in question. */
export class BackendUnreachableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackendUnreachableError';
  }
}

const NETWORK_MESSAGE = /TypeError|FetchError|fetch failed|Failed to fetch|NetworkError|Load failed|network/i;

/**
 * Looks up the signed-in user (docs/product.md, Records): nothing when no session exists or the session is
 * refused; BackendUnreachableError when the network or the server is down; other errors are
 * thrown.
 */
export async function fetchCurrentUser(client: Pick<LinkboardClient, 'auth' | 'rpc'>): Promise<CurrentUser | null> {
  const { data: sessionData, error: sessionError } = await client.auth.getSession();
  if (!sessionData.session) {
    // An expired token that could not be refreshed for want of a network keeps the session.
    if (sessionError?.name === 'AuthRetryableFetchError') throw new BackendUnreachableError(sessionError.message);
    return null;
  }
  let answer;
  try {
    answer = await client.rpc('get_my_profile');
  } catch (error) {
    throw new BackendUnreachableError(error instanceof Error ? error.message : String(error));
  }
  const { data, error, status } = answer;
  if (error) {
    if (error.code === 'PGRST301' || error.code === '28000' || error.code === '42501' || status === 401) return null;
    if (!status || status >= 500 || NETWORK_MESSAGE.test(error.message))
      throw new BackendUnreachableError(error.message);
    throw new Error(error.message);
  }
  return (data as CurrentUser | null) ?? null;
}
