/**
 * The page's Realtime client (docs/sync-protocol.md, "Poke"): the poke's socket
 * (poke-socket.ts) on `<backend>/realtime/v1` (wss:// for https://), with the anon key, for a
 * hosted project and the local stack alike. Loaded after the first paint with the poke
 * (src/app/sync/user-session.ts), outside the screens' first download.
 */
import { anonKey, backendUrl } from './config.ts';
import { PokeSocket } from './poke-socket.ts';

export function realtimeUrl(base: string = backendUrl): string {
  const url = new URL('realtime/v1', base.endsWith('/') ? base : `${base}/`);
  url.protocol = url.protocol.replace(/^http/, 'ws');
  return url.toString();
}

export function createRealtimeClient(key: string = anonKey, base: string = backendUrl): PokeSocket {
  return new PokeSocket({ url: realtimeUrl(base), apiKey: key });
}
