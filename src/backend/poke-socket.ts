/**
 * The page's Realtime socket for pokes (docs/sync-protocol.md, "Poke"): the part of Supabase
 * Realtime's protocol (Phoenix channels, `vsn=1.0.0` JSON frames) that the poke uses, as
 * realtime-js speaks it: private channels joined with the session's access token, `broadcast`
 * events heard, `access_token` sent to the joined channels when the token changes, a heartbeat
 * on `phoenix` every 25 s, `phx_leave` on removal. The same for a hosted project and the local
 * stack (supabase/local/realtime-connection.ts answers as Realtime does).
 *
 * Written for the poke alone rather than realtime-js's RealtimeClient (presence, Postgres changes,
 * the binary protocol: about 16 KB of gzipped JS the signed-in dashboard downloads within its
 * first second, docs/bench.md). A channel reports 'SUBSCRIBED' when its join is answered ok,
 * 'CHANNEL_ERROR' when it is refused or errored or the socket drops, 'TIMED_OUT' when its join is
 * not answered within 10 s, 'CLOSED' when the server closes it (an expired or refused token);
 * each time, once. Joining again after a failure is the caller's (src/sync/realtime-poke.ts): a
 * socket opens with the first join after it closed, and closes with its last channel.
 */

/** A Phoenix message as a `vsn=1.0.0` frame carries it. */
interface Frame {
  join_ref: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: Record<string, unknown>;
}

export type ChannelStatus = 'SUBSCRIBED' | 'CHANNEL_ERROR' | 'TIMED_OUT' | 'CLOSED';

/** The part of the WebSocket API used (the browser's; ws's in Node tests). */
interface SocketLike {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

type SocketClass = new (url: string) => SocketLike;

interface SocketTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface PokeSocketOptions {
  /** Realtime's address: `ws(s)://<backend>/realtime/v1`. */
  url: string;
  apiKey: string;
  /** The WebSocket class; the browser's by default. */
  WebSocket?: SocketClass;
  timers?: SocketTimers;
  heartbeatMs?: number;
}

export const HEARTBEAT_MS = 25_000;
export const JOIN_TIMEOUT_MS = 10_000;
const OPEN = 1;

const globalTimers: SocketTimers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The message in a text frame, or null when it is none of ours (ignored). */
function decode(data: unknown): Frame | null {
  if (typeof data !== 'string') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return null;
  }
  if (!isObject(parsed) || typeof parsed.topic !== 'string' || typeof parsed.event !== 'string') return null;
  const ref = (value: unknown) => (typeof value === 'string' ? value : null);
  const payload = isObject(parsed.payload) ? parsed.payload : {};
  return { join_ref: ref(parsed.join_ref), ref: ref(parsed.ref), topic: parsed.topic, event: parsed.event, payload };
}

export class PokeChannel {
  private readonly listeners = new Map<string, (() => void)[]>();
  private onStatus: ((status: ChannelStatus) => void) | null = null;
  /** idle: not joining; joining: wants in (its join sent once the socket is open); gone: removed. */
  state: 'idle' | 'joining' | 'joined' | 'gone' = 'idle';
  /** The ref of its phx_join, once sent. */
  joinRef: string | null = null;
  timeout: unknown = null;

  constructor(
    readonly topic: string,
    private readonly socket: PokeSocket,
  ) {}

  on(_type: 'broadcast', filter: { event: string }, callback: () => void): this {
    this.listeners.set(filter.event, [...(this.listeners.get(filter.event) ?? []), callback]);
    return this;
  }

  subscribe(callback: (status: ChannelStatus) => void): this {
    this.onStatus = callback;
    this.socket.join(this);
    return this;
  }

  heard(event: unknown): void {
    if (typeof event !== 'string') return;
    for (const listener of this.listeners.get(event) ?? []) listener();
  }

  report(status: ChannelStatus): void {
    this.onStatus?.(status);
  }
}

export class PokeSocket {
  private socket: SocketLike | null = null;
  private readonly channels = new Set<PokeChannel>();
  private token: string | null = null;
  private lastRef = 0;
  private heartbeat: unknown = null;
  /** The ref of the heartbeat not yet answered. */
  private pendingBeat: string | null = null;
  private readonly timers: SocketTimers;

  constructor(private readonly options: PokeSocketOptions) {
    this.timers = options.timers ?? globalTimers;
  }

  /** The channels not removed. */
  getChannels(): readonly PokeChannel[] {
    return [...this.channels];
  }

  /** A private channel on `topic` (Realtime's `realtime:<topic>`). */
  channel(topic: string, _options: { config: { private: boolean } }): PokeChannel {
    const channel = new PokeChannel(`realtime:${topic}`, this);
    this.channels.add(channel);
    return channel;
  }

  /** Leaves the channel (phx_leave once its join was sent); the socket closes with its last channel. */
  removeChannel(channel: PokeChannel): Promise<void> {
    const sent = channel.state === 'joined' || (channel.state === 'joining' && channel.joinRef !== null);
    if (sent) this.send(channel.topic, 'phx_leave', {}, channel.joinRef);
    this.settle(channel, 'gone');
    this.channels.delete(channel);
    if (this.channels.size === 0) this.disconnect();
    return Promise.resolve();
  }

  /** The access token for joins from now on, sent to the channels joined. */
  setAuth(token: string | null): Promise<void> {
    this.token = token;
    if (token) {
      for (const channel of this.channels) {
        if (channel.state === 'joined')
          this.send(channel.topic, 'access_token', { access_token: token }, channel.joinRef);
      }
    }
    return Promise.resolve();
  }

  /** Closes the socket; channels still joined or joining report 'CHANNEL_ERROR'. */
  disconnect(): Promise<void> {
    const socket = this.socket;
    if (socket) {
      this.dropped(socket);
      socket.close(1000, 'Disconnected');
    }
    return Promise.resolve();
  }

  join(channel: PokeChannel): void {
    if (channel.state === 'gone') return;
    channel.state = 'joining';
    channel.joinRef = null;
    this.timers.clearTimeout(channel.timeout);
    channel.timeout = this.timers.setTimeout(() => this.fail(channel, 'TIMED_OUT'), JOIN_TIMEOUT_MS);
    const socket = this.connect();
    if (socket.readyState === OPEN) this.sendJoin(channel);
  }

  private connect(): SocketLike {
    if (this.socket) return this.socket;
    const Socket = this.options.WebSocket ?? (globalThis.WebSocket as unknown as SocketClass);
    const url = `${this.options.url}/websocket?apikey=${encodeURIComponent(this.options.apiKey)}&vsn=1.0.0`;
    const socket = new Socket(url);
    this.socket = socket;
    socket.onopen = () => {
      if (this.socket !== socket) return;
      this.beat(socket);
      for (const channel of this.channels) if (channel.state === 'joining' && !channel.joinRef) this.sendJoin(channel);
    };
    socket.onmessage = (event) => {
      if (this.socket === socket) this.receive(decode(event.data));
    };
    socket.onclose = () => this.dropped(socket);
    socket.onerror = () => undefined;
    return socket;
  }

  private sendJoin(channel: PokeChannel): void {
    const ref = this.nextRef();
    channel.joinRef = ref;
    const config = {
      broadcast: { ack: false, self: false },
      presence: { key: '', enabled: false },
      postgres_changes: [],
      private: true,
    };
    this.send(channel.topic, 'phx_join', this.token ? { config, access_token: this.token } : { config }, ref, ref);
  }

  private receive(frame: Frame | null): void {
    if (!frame) return;
    if (frame.topic === 'phoenix') {
      if (frame.event === 'phx_reply' && frame.ref === this.pendingBeat) this.pendingBeat = null;
      return;
    }
    for (const channel of this.channels) {
      if (channel.topic !== frame.topic || channel.joinRef === null) continue;
      // A message of an earlier join of this topic is not this one's.
      if (frame.join_ref !== null && frame.join_ref !== channel.joinRef) continue;
      this.handle(channel, frame);
    }
  }

  private handle(channel: PokeChannel, frame: Frame): void {
    const { event, payload } = frame;
    if (event === 'phx_reply' && frame.ref === channel.joinRef && channel.state === 'joining') {
      if (payload.status === 'ok') {
        this.timers.clearTimeout(channel.timeout);
        channel.state = 'joined';
        channel.report('SUBSCRIBED');
      } else {
        this.fail(channel, 'CHANNEL_ERROR');
      }
    } else if (event === 'broadcast' && channel.state === 'joined') {
      channel.heard(payload.event);
    } else if (event === 'phx_error') {
      this.fail(channel, 'CHANNEL_ERROR');
    } else if (event === 'phx_close') {
      this.fail(channel, 'CLOSED');
    }
  }

  /** A channel joining or joined that failed: told once, then idle until joined again. */
  private fail(channel: PokeChannel, status: ChannelStatus): void {
    if (channel.state !== 'joining' && channel.state !== 'joined') return;
    this.settle(channel, 'idle');
    channel.report(status);
  }

  private settle(channel: PokeChannel, state: 'idle' | 'gone'): void {
    this.timers.clearTimeout(channel.timeout);
    channel.timeout = null;
    channel.state = state;
  }

  /** The socket closed (or is being closed): every channel on it errored. */
  private dropped(socket: SocketLike): void {
    if (this.socket !== socket) return;
    this.socket = null;
    this.timers.clearTimeout(this.heartbeat);
    this.heartbeat = null;
    this.pendingBeat = null;
    for (const channel of [...this.channels]) this.fail(channel, 'CHANNEL_ERROR');
  }

  /** A heartbeat every HEARTBEAT_MS; one not answered by the next closes the socket (as realtime-js does). */
  private beat(socket: SocketLike): void {
    this.heartbeat = this.timers.setTimeout(() => {
      if (this.socket !== socket) return;
      if (this.pendingBeat !== null) {
        this.dropped(socket);
        socket.close(1000, 'heartbeat timeout');
        return;
      }
      this.pendingBeat = this.nextRef();
      this.send('phoenix', 'heartbeat', {}, null, this.pendingBeat);
      this.beat(socket);
    }, this.options.heartbeatMs ?? HEARTBEAT_MS);
  }

  private send(
    topic: string,
    event: string,
    payload: Record<string, unknown>,
    joinRef: string | null,
    ref: string = this.nextRef(),
  ): void {
    const socket = this.socket;
    if (!socket || socket.readyState !== OPEN) return;
    socket.send(JSON.stringify({ join_ref: joinRef, ref, topic, event, payload }));
  }

  private nextRef(): string {
    this.lastRef += 1;
    return String(this.lastRef);
  }
}
