import { rememberAnonKey } from './anon-key.ts';
import { createPageClient } from './page-client.ts';

/** The one backend client of the page (the session is in IndexedDB, see session-storage.ts). */
export const supabase = createPageClient({ autoRefreshToken: true });

// The service worker reads the key from IndexedDB (it has no index.html to read it from).
void rememberAnonKey().catch(() => undefined);
