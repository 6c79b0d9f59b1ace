/**
 * The page's Realtime client (docs/sync-protocol.md, "Poke"): supabase-js's RealtimeClient on
 * `<backend>/realtime/v1` (wss:// for https://), with the anon key, as supabase-js's createClient
 * builds it, for a hosted project and the local stack alike. Loaded after the first paint with the
 * poke (src/app/sync/user-session.ts), outside the screens' first download.
 */
import { RealtimeClient } from '@supabase/supabase-js';
import { anonKey, backendUrl } from './config.ts';

export function realtimeUrl(base: string = backendUrl): string {
  const url = new URL('realtime/v1', base.endsWith('/') ? base : `${base}/`);
  url.protocol = url.protocol.replace(/^http/, 'ws');
  return url.toString();
}

export function createRealtimeClient(key: string = anonKey, base: string = backendUrl): RealtimeClient {
  return new RealtimeClient(realtimeUrl(base), { params: { apikey: key }, vsn: '1.0.0' });
}
