/**
 * Where the backend is. A hosted project is named by VITE_SUPABASE_URL and
 * VITE_SUPABASE_ANON_KEY at build time. Without them the app talks to the local stack on its own
 * origin, and learns the stack's anon key at run time: the stack writes it into index.html
 * (<meta name="linkboard-anon-key">, also in the precached copy the app boots from offline). The
 * page keeps it in IndexedDB for the service worker, which has no document (see anon-key.ts).
 */
export const ANON_KEY_META = 'linkboard-anon-key';

function origin(): string {
  return typeof location === 'undefined' ? 'http://localhost:4173' : location.origin;
}

/** The key the page was served with, if any. */
export function anonKeyOfPage(doc: Document | undefined = globalThis.document): string {
  return doc?.querySelector(`meta[name="${ANON_KEY_META}"]`)?.getAttribute('content') ?? '';
}

export const backendUrl: string = import.meta.env.VITE_SUPABASE_URL || origin();
/** Empty in the service worker when the app was not built with a key: read it with workerAnonKey(). */
export const anonKey: string = import.meta.env.VITE_SUPABASE_ANON_KEY || anonKeyOfPage();
