/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_SUPABASE_URL?: string;
  readonly VITE_SUPABASE_ANON_KEY?: string;
  /** The server's VAPID public key for reminder pushes (a hosted build); the local stack writes it into the page. */
  readonly VITE_VAPID_PUBLIC_KEY?: string;
}
