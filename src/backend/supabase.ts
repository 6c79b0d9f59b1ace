import { createClient } from '@supabase/supabase-js';
import { anonKey, backendUrl } from './config.ts';

/** The one supabase-js client of the app. */
export const supabase = createClient(backendUrl, anonKey, {
  auth: {
    persistSession: true,
    autoRefreshToken: true,
    detectSessionInUrl: false,
    storageKey: 'linkboard-auth',
  },
});
