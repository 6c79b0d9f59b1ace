import { createLinkboardClient } from './supabase-client.ts';

/** The one supabase-js client of the page (the session is in IndexedDB, see session-storage.ts). */
export const supabase = createLinkboardClient({ autoRefreshToken: true });
