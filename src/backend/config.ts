/**
 * Where the backend is. A hosted project is named by VITE_SUPABASE_URL and
 * VITE_SUPABASE_ANON_KEY; without them the app talks to the local stack on its own
 * origin with the stack's fixed development key (the well-known Supabase demo anon key,
 * never for production).
 */
export const DEV_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0';

function origin(): string {
  return typeof location === 'undefined' ? 'http://localhost:4173' : location.origin;
}

export const backendUrl: string = import.meta.env.VITE_SUPABASE_URL || origin();
export const anonKey: string = import.meta.env.VITE_SUPABASE_ANON_KEY || DEV_ANON_KEY;
