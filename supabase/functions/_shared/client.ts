/**
 * A supabase-js client for server code. Functions never use Realtime, but supabase-js builds
 * a Realtime client eagerly and throws on Node 20, which has no global WebSocket; there it gets
 * a transport that refuses to connect. Deno and Node 22+ keep their native WebSocket.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';

class NoWebSocket {
  constructor() {
    throw new Error('Realtime is not available in this runtime (no global WebSocket)');
  }
}

export function serverClient(url: string, key: string, fetchImpl: typeof fetch): SupabaseClient {
  const transport = typeof globalThis.WebSocket === 'undefined' ? { transport: NoWebSocket as never } : {};
  return createClient(url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { fetch: fetchImpl },
    realtime: transport,
  });
}
