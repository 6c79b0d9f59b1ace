/**
 * Realtime listeners for the tests, through supabase-js's own RealtimeClient (ws as its
 * transport: Node 20 has no WebSocket) against a local stack on a real port: channels joined as
 * the app joins them (private, with the user's access token), each counting its `poke`
 * broadcasts, and waits for states (joined, refused, closed, a count reached), never for a time.
 */
import { RealtimeClient, type RealtimeChannel } from '@supabase/supabase-js';
import { WebSocket } from 'ws';
import { TEST_ANON_KEY } from './test-keys.ts';

export const BOARD = 'public:voting';

export interface Listened {
  channel: RealtimeChannel;
  /** Pokes heard on this channel. */
  pokes: number;
  /** Every subscribe status, in order, with the error's message when there is one. */
  statuses: string[];
  /** `system` messages Realtime sent on this channel. */
  system: { status?: string; message?: string }[];
}

/** A RealtimeClient of the stack at `base` (http://...), speaking `vsn`. */
export function realtimeClient(base: string, token?: string, vsn: '1.0.0' | '2.0.0' = '1.0.0'): RealtimeClient {
  const url = new URL('/realtime/v1', base);
  url.protocol = url.protocol.replace('http', 'ws');
  const client = new RealtimeClient(url.toString(), {
    params: { apikey: TEST_ANON_KEY },
    vsn,
    transport: WebSocket as unknown as typeof globalThis.WebSocket,
    // A refused channel is not joined again behind the test's back.
    reconnectAfterMs: () => 60_000,
  });
  if (token) void client.setAuth(token);
  return client;
}

/** Waits until `check` holds, re-checking on every event loop turn; fails after `ms`. */
export async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Joins `topic` privately and counts its pokes; resolves once it is SUBSCRIBED or refused. */
export async function listen(client: RealtimeClient, topic: string): Promise<Listened> {
  const channel = client.channel(topic, { config: { private: true } });
  const listened: Listened = { channel, pokes: 0, statuses: [], system: [] };
  channel.on('broadcast', { event: 'poke' }, () => (listened.pokes += 1));
  channel.on('system', {}, (payload: { status?: string; message?: string }) => listened.system.push(payload));
  channel.subscribe((status, error) => listened.statuses.push(error ? `${status}: ${error.message}` : status));
  await until(() => listened.statuses.length > 0, `${topic} to be joined or refused`);
  return listened;
}
