import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { authOptions } from './auth-options.ts';
import { anonKey, backendUrl } from './config.ts';

/**
 * The whole supabase-js client, for the service worker (background sync) and the tests. The page
 * uses createPageClient (page-client.ts): the same auth and PostgREST clients without the Realtime
 * and Storage clients it never calls. The worker passes autoRefreshToken: false so it never keeps
 * timers running.
 */
export function createLinkboardClient(options: { autoRefreshToken: boolean; anonKey?: string }): SupabaseClient {
  return createClient(backendUrl, options.anonKey || anonKey, { auth: authOptions(options.autoRefreshToken) });
}
