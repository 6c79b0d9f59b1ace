/**
 * One Realtime WebSocket on the local stack (realtime-socket.ts accepts it): the Phoenix channel
 * protocol as Supabase Realtime answers realtime-js. `heartbeat` on `phoenix` is answered;
 * `phx_join` of `realtime:<topic>` with `config.private: true` and an `access_token` is checked
 * (realtime-auth.ts) and answered ok or with Realtime's error reason; a joined channel then gets
 * each `broadcast` the hub delivers on its topic, `access_token` swaps its token (a bad one, or
 * one that may no longer read the topic, closes the channel with a `system` error and
 * `phx_close`, as does the token's expiry), and `phx_leave` leaves. Messages are handled one at a
 * time in order; anything that is not a message closes the socket (1007).
 */
import type { WebSocket } from 'ws';
import type { Db } from './db.ts';
import type { Claims } from './jwt.ts';
import type { PokeHub } from './poke-hub.ts';
import { checkToken, expiredMessage, mayRead, unauthorized } from './realtime-auth.ts';
import { decodeFrame, encodeFrame, reply, type PhoenixMessage, type Vsn } from './realtime-frames.ts';

export interface RealtimeLimits {
  /** Sockets one user may hold with a joined channel (tabs and devices). */
  connectionsPerUser: number;
  /** Sockets the stack holds in all. */
  connections: number;
  /** Channels one socket may join. */
  channelsPerConnection: number;
  /** The largest frame a client may send (bytes); a larger one closes the socket (1009). */
  maxFrameBytes: number;
  /** A socket that sends nothing (not even a heartbeat) for this long is closed. */
  idleMs: number;
}

export const DEFAULT_REALTIME_LIMITS: RealtimeLimits = {
  connectionsPerUser: 10,
  connections: 2000,
  channelsPerConnection: 10,
  maxFrameBytes: 64 * 1024,
  idleMs: 60_000,
};

export interface RealtimeDeps {
  db: Db;
  jwtSecret: string;
  hub: PokeHub;
  limits: RealtimeLimits;
  /** Counts this socket as one of `userId`'s; false when the user's cap is reached. */
  claimUser(userId: string): boolean;
  releaseUser(userId: string): void;
}

interface Channel {
  topic: string;
  name: string;
  joinRef: string | null;
  token: string;
  unlisten: () => void;
  expiry: ReturnType<typeof setTimeout>;
}

/** setTimeout's longest delay. */
const MAX_DELAY_MS = 2 ** 31 - 1;
const PREFIX = 'realtime:';

export class RealtimeConnection {
  private readonly channels = new Map<string, Channel>();
  private queue: Promise<void> = Promise.resolve();
  private user: string | null = null;
  private closed = false;
  private readonly idle: ReturnType<typeof setTimeout>;

  constructor(
    private readonly socket: WebSocket,
    private readonly vsn: Vsn,
    private readonly apiKey: string,
    private readonly deps: RealtimeDeps,
  ) {
    this.idle = setTimeout(() => socket.close(1000, 'Idle'), deps.limits.idleMs);
    socket.on('message', (data, isBinary) => {
      this.idle.refresh();
      if (isBinary) return this.socket.close(1003, 'Binary frames are not supported');
      const message = decodeFrame(vsn, Buffer.isBuffer(data) ? data.toString('utf8') : String(data));
      if (!message) return this.socket.close(1007, 'Invalid message');
      this.queue = this.queue
        .then(() => this.handle(message))
        .catch((error: unknown) => {
          console.error('[realtime]', error);
          this.socket.close(1011, 'Unexpected failure');
        });
    });
    socket.on('close', () => this.dispose());
    socket.on('error', () => this.socket.terminate());
  }

  private send(message: PhoenixMessage): void {
    if (!this.closed && this.socket.readyState === this.socket.OPEN) this.socket.send(encodeFrame(this.vsn, message));
  }

  private async handle(message: PhoenixMessage): Promise<void> {
    if (this.closed) return;
    const { topic, event } = message;
    if (topic === 'phoenix' && event === 'heartbeat') return this.send(reply(message, 'ok', {}));
    if (event === 'phx_join') return this.join(message);
    const channel = this.channels.get(topic);
    if (!channel) return this.send(reply(message, 'error', { reason: 'unmatched topic' }));
    if (event === 'phx_leave') {
      this.drop(channel);
      return this.send(reply(message, 'ok', {}));
    }
    if (event === 'access_token') return this.refresh(channel, message.payload.access_token);
    // Anything else on a joined channel (a client's broadcast, presence): Realtime ignores it here,
    // and no policy lets a client send.
  }

  private async join(message: PhoenixMessage): Promise<void> {
    const refuse = (reason: string) => this.send(reply(message, 'error', { reason }));
    const { topic, payload } = message;
    if (!topic.startsWith(PREFIX)) return refuse('unmatched topic');
    const name = topic.slice(PREFIX.length);
    if (!name) return refuse('TopicNameRequired: You must provide a topic name');
    const config = payload.config as { private?: unknown } | undefined;
    if (config?.private !== true) return refuse('PrivateOnly: This project only allows private channels');
    const previous = this.channels.get(topic);
    if (previous) this.drop(previous);
    if (this.channels.size >= this.deps.limits.channelsPerConnection) {
      return refuse('ChannelRateLimitReached: Too many channels');
    }
    const token = typeof payload.access_token === 'string' ? payload.access_token : this.apiKey;
    const checked = await checkToken(token, this.deps.jwtSecret);
    if (!checked.ok) return refuse(checked.reason);
    const sub = typeof checked.claims.sub === 'string' ? checked.claims.sub : null;
    if (sub && this.user !== sub) {
      if (this.user === null && !this.deps.claimUser(sub)) {
        return refuse('ConnectionRateLimitReached: Too many connected users');
      }
      if (this.user === null) this.user = sub;
    }
    if (!(await mayRead(this.deps.db, name, checked.claims))) return refuse(unauthorized(name));
    if (this.closed) return;
    const channel: Channel = {
      topic,
      name,
      joinRef: message.join_ref ?? message.ref,
      token,
      unlisten: this.deps.hub.listen(name, (event) =>
        this.send({
          join_ref: channel.joinRef,
          ref: null,
          topic,
          event: 'broadcast',
          payload: { type: 'broadcast', event, payload: {} },
        }),
      ),
      expiry: this.expireAt(topic, checked.claims.exp),
    };
    this.channels.set(topic, channel);
    this.send(reply(message, 'ok', { postgres_changes: [] }));
  }

  private async refresh(channel: Channel, token: unknown): Promise<void> {
    if (typeof token !== 'string' || token === channel.token || token.startsWith('sb_')) return;
    const checked = await checkToken(token, this.deps.jwtSecret);
    if (this.channels.get(channel.topic) !== channel) return;
    if (!checked.ok) return this.shutdown(channel, checked.reason.replace(/^[A-Za-z]+: /, ''));
    if (!(await mayRead(this.deps.db, channel.name, checked.claims as Claims))) {
      return this.shutdown(channel, `You no longer have permission to read from this Channel topic: ${channel.name}`);
    }
    if (this.channels.get(channel.topic) !== channel) return;
    channel.token = token;
    clearTimeout(channel.expiry);
    channel.expiry = this.expireAt(channel.topic, checked.claims.exp);
  }

  private expireAt(topic: string, exp: number): ReturnType<typeof setTimeout> {
    const ms = Math.min(MAX_DELAY_MS, Math.max(0, exp * 1000 - Date.now()));
    return setTimeout(() => {
      const channel = this.channels.get(topic);
      if (channel) this.shutdown(channel, expiredMessage(exp));
    }, ms);
  }

  /** Realtime's shutdown of one channel: a `system` error, then `phx_close`. */
  private shutdown(channel: Channel, message: string): void {
    this.drop(channel);
    const base = { join_ref: channel.joinRef, ref: null, topic: channel.topic };
    this.send({
      ...base,
      event: 'system',
      payload: { extension: 'system', status: 'error', message, channel: channel.name },
    });
    this.send({ ...base, event: 'phx_close', payload: {} });
  }

  private drop(channel: Channel): void {
    channel.unlisten();
    clearTimeout(channel.expiry);
    this.channels.delete(channel.topic);
  }

  private dispose(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.idle);
    for (const channel of [...this.channels.values()]) this.drop(channel);
    if (this.user !== null) this.deps.releaseUser(this.user);
  }
}
