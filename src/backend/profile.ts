import type { SupabaseClient } from '@supabase/supabase-js';

/** The current user as the app knows it: the auth account plus its profile. */
export interface CurrentUser {
  id: string;
  email: string | null;
  username: string | null;
  full_name: string | null;
  bio: string | null;
  subscription_tier: string | null;
  time_zone: string | null;
}

/**
 * Looks up the signed-in user (spec 7.2): nothing when no session exists; other errors
 * are thrown.
 */
export async function fetchCurrentUser(client: SupabaseClient): Promise<CurrentUser | null> {
  const { data: sessionData } = await client.auth.getSession();
  if (!sessionData.session) return null;
  const { data, error } = await client.rpc('get_my_profile');
  if (error) {
    if (error.code === 'PGRST301' || error.code === '28000' || error.code === '42501') return null;
    throw new Error(error.message);
  }
  return (data as CurrentUser | null) ?? null;
}
