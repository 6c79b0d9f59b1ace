/**
 * Supabase Realtime on the local stack (docs/sync-protocol.md, "Poke"): the WebSocket at
 * `/realtime/v1/websocket?apikey=<anon key>&vsn=1.0.0` (or 2.0.0) on the stack's own HTTP server,
 * speaking the Phoenix channel protocol realtime-js speaks (realtime-connection.ts). Broadcasts
 * committed in the database reach the joined channels through the relay (realtime-relay.ts) and
 * the hub's throttle (poke-hub.ts). A missing or invalid API key is refused before the upgrade
 * (401, as Realtime's socket connect), an unknown `vsn` with 400, and sockets beyond the
 * stack's cap with 429; a user's sockets beyond theirs are refused at join, with Realtime's reason.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { Db } from './db.ts';
import { apiKeyClaims } from './api-key.ts';
import { PokeHub, type PokeHubOptions } from './poke-hub.ts';
import { DEFAULT_REALTIME_LIMITS, RealtimeConnection, type RealtimeLimits } from './realtime-connection.ts';
import { VSNS, type Vsn } from './realtime-frames.ts';
import { startRealtimeRelay } from './realtime-relay.ts';

export const REALTIME_PATH = '/realtime/v1/websocket';

export interface RealtimeOptions {
  limits?: Partial<RealtimeLimits>;
  /** The poke's throttle (250 ms a topic). */
  poke?: PokeHubOptions;
}

export interface RealtimeServer {
  hub: PokeHub;
  /** Open sockets. */
  readonly size: number;
  /** Ends every open socket at once, as a dropped network does (the clients reconnect). */
  terminateAll(): void;
  close(): Promise<void>;
}

function refuse(socket: Duplex, status: number, reason: string, message: string): void {
  const body = JSON.stringify({ message });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: close\r\n\r\n${body}`,
  );
}

export async function startRealtime(
  server: Server,
  deps: { db: Db; jwtSecret: string },
  options: RealtimeOptions = {},
): Promise<RealtimeServer> {
  const limits = { ...DEFAULT_REALTIME_LIMITS, ...options.limits };
  const hub = new PokeHub(options.poke);
  const relay = await startRealtimeRelay(deps.db, hub);
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxFrameBytes });
  const perUser = new Map<string, number>();
  let open = 0;

  const connection = {
    ...deps,
    hub,
    limits,
    claimUser(userId: string) {
      const held = perUser.get(userId) ?? 0;
      if (held >= limits.connectionsPerUser) return false;
      perUser.set(userId, held + 1);
      return true;
    },
    releaseUser(userId: string) {
      const left = (perUser.get(userId) ?? 1) - 1;
      if (left <= 0) perUser.delete(userId);
      else perUser.set(userId, left);
    },
  };

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname !== REALTIME_PATH) return refuse(socket, 404, 'Not Found', 'Not found');
      const apiKey = url.searchParams.get('apikey') ?? String(req.headers.apikey ?? '');
      if (!(await apiKeyClaims(apiKey || undefined, deps.jwtSecret))) {
        return refuse(socket, 401, 'Unauthorized', 'Invalid API key');
      }
      const vsn = (url.searchParams.get('vsn') ?? '1.0.0') as Vsn;
      if (!VSNS.includes(vsn)) return refuse(socket, 400, 'Bad Request', `Unsupported vsn: ${vsn}`);
      if (open >= limits.connections) return refuse(socket, 429, 'Too Many Requests', 'Too many connected users');
      open += 1;
      wss.handleUpgrade(req, socket, head, (ws) => {
        ws.once('close', () => (open -= 1));
        new RealtimeConnection(ws, vsn, apiKey, connection);
      });
    })().catch(() => socket.destroy());
  };
  server.on('upgrade', onUpgrade);

  return {
    hub,
    get size() {
      return open;
    },
    terminateAll() {
      for (const client of wss.clients) client.terminate();
    },
    async close() {
      server.off('upgrade', onUpgrade);
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((done) => wss.close(() => done()));
      await relay.stop();
    },
  };
}
