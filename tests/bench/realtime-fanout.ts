/**
 * Realtime fan-out on the local stack (docs/bench.md): `clients` sockets speaking the Phoenix
 * protocol with `ws` as realtime-js does (vsn 1.0.0), each with a channel joined under the
 * database's policy, `listeners` of them on the voting board's `public:voting` and the rest on
 * their own `user:<id>`. Each round one push creates a public poll; a sample is the time from the
 * push's request to a board socket's `poke` broadcast (the commit, the relay, the hub and the
 * socket write), one per board socket. Errors: a join refused, a socket closed, a poke missing.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import { signHs256 } from '../../supabase/local/keys.ts';
import type { RunningStack } from '../../supabase/local/server.ts';
import type { Account } from './setup.ts';
import type { Measure } from './stats.ts';

export interface FanoutPlan {
  clients: number;
  listeners: number;
  rounds: number;
  log(message: string): void;
}

const BOARD = 'public:voting';
const tokenFor = (stack: RunningStack, sub: string) =>
  signHs256(
    { sub, role: 'authenticated', aud: 'authenticated', exp: Math.floor(Date.now() / 1000) + 3600 },
    stack.keys.jwtSecret,
  );

interface Socket {
  ws: WebSocket;
  onPoke: (() => void) | null;
}

/** Opens a socket and joins `topic`; resolves once joined, rejects when refused. */
function connect(stack: RunningStack, topic: string, token: string, errors: { count: number }): Promise<Socket> {
  const url = new URL(`/realtime/v1/websocket?apikey=${stack.keys.anonKey}&vsn=1.0.0`, stack.url);
  url.protocol = 'ws:';
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const socket: Socket = { ws, onPoke: null };
    let joined = false;
    ws.on('open', () =>
      ws.send(
        JSON.stringify({
          topic: `realtime:${topic}`,
          event: 'phx_join',
          payload: { config: { private: true, broadcast: { self: false, ack: false } }, access_token: token },
          ref: '1',
          join_ref: '1',
        }),
      ),
    );
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as { event: string; payload: { status?: string; event?: string } };
      if (message.event === 'phx_reply' && !joined) {
        if (message.payload.status === 'ok') {
          joined = true;
          resolve(socket);
        } else reject(new Error(`join refused: ${JSON.stringify(message.payload)}`));
      } else if (message.event === 'broadcast' && message.payload.event === 'poke') socket.onPoke?.();
    });
    ws.on('close', () => {
      if (joined) errors.count += 1;
    });
    ws.on('error', reject);
  });
}

export async function realtimeFanout(stack: RunningStack, author: Account, plan: FanoutPlan): Promise<Measure> {
  const errors = { count: 0 };
  const sockets: Socket[] = [];
  // Joined a hundred at a time, as a crowd of devices arrives.
  for (let start = 0; start < plan.clients; start += 100) {
    const batch = Array.from({ length: Math.min(100, plan.clients - start) }, (_, i) => {
      const sub = randomUUID();
      return connect(stack, start + i < plan.listeners ? BOARD : `user:${sub}`, tokenFor(stack, sub), errors);
    });
    sockets.push(...(await Promise.all(batch)));
  }
  plan.log(`${sockets.length} Realtime sockets joined (${stack.realtime.size} on the stack)`);
  const board = sockets.slice(0, plan.listeners);
  const samples: number[] = [];
  const token = tokenFor(stack, author.id);
  for (let round = 0; round < plan.rounds; round += 1) {
    let heard = 0;
    let started = 0;
    const all = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`round ${round}: ${heard}/${board.length} pokes`)), 10_000);
      for (const socket of board) {
        let mine = false;
        socket.onPoke = () => {
          if (mine) return;
          mine = true;
          samples.push(performance.now() - started);
          heard += 1;
          if (heard === board.length) {
            clearTimeout(timer);
            resolve();
          }
        };
      }
    });
    const id = randomUUID();
    started = performance.now();
    const response = await fetch(`${stack.url}/rest/v1/rpc/sync_push`, {
      method: 'POST',
      headers: { apikey: stack.keys.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        p_mutations: [
          { id: randomUUID(), name: 'poll.create', args: { id, title: `Fan-out ${id}`, options: ['a', 'b'] } },
        ],
      }),
    });
    if (!response.ok) throw new Error(`sync_push: ${response.status} ${await response.text()}`);
    await all.catch((error: unknown) => {
      errors.count += board.length - heard;
      plan.log(String(error));
    });
    // Past the topic's throttle interval (250 ms), so the next round's poke goes at once.
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  for (const socket of sockets) socket.ws.close();
  return {
    name: `Realtime poke fan-out: ${plan.listeners} of ${plan.clients} sockets`,
    unit: 'ms',
    samples,
    bar: { p95: 500 },
    note: `push request to each board socket's poke, ${plan.rounds} round(s); ${errors.count} error(s)`,
    ...(errors.count > 0 ? { failed: `${errors.count} error(s): joins refused, sockets closed or pokes missing` } : {}),
  };
}
