import { rememberAnonKey } from './anon-key.ts';
import { createLinkboardClient } from './supabase-client.ts';

/** The one supabase-js client of the page (the session is in IndexedDB, see session-storage.ts). */
export const supabase = createLinkboardClient({ autoRefreshToken: true });

// The service worker reads the key from IndexedDB (it has no index.html to read it from).
void rememberAnonKey().catch(() => undefined);
