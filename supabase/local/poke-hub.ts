/**
 * Who listens on which Realtime topic on the local stack, and the poke's throttle
 * (docs/sync-protocol.md, "Poke"). Topics are Realtime channel names: `user:<id>` (that user's
 * devices) and `public:voting` (the voting board while it is shown). A broadcast committed in
 * the database reaches the hub through realtime-relay.ts and each joined channel of the socket
 * server (realtime-socket.ts) is a listener. A topic's event goes out at most once per interval:
 * the first at once, any that follow within the interval make one trailing one at its end, so a
 * busy poll costs each listener a few pulls a second and the last change is never missed.
 */

/** The timers the throttle runs on (tests hold them). */
export interface PokeClock {
  setTimeout(callback: () => void, ms: number): unknown;
}

export interface PokeHubOptions {
  /** The shortest time between two deliveries of one event on one topic. */
  intervalMs?: number;
  clock?: PokeClock;
}

export const POKE_INTERVAL_MS = 250;

export const userTopic = (userId: string): string => `user:${userId}`;

/** Node's timers, not holding the process open for a trailing poke. */
const nodeClock: PokeClock = {
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    handle.unref?.();
    return handle;
  },
};

export type TopicListener = (event: string) => void;

export class PokeHub {
  private readonly byTopic = new Map<string, Set<TopicListener>>();
  /** `<event> <topic>` delivered within the last interval; `again` when another came since. */
  private readonly held = new Map<string, { again: boolean }>();
  private readonly intervalMs: number;
  private readonly clock: PokeClock;

  constructor(options: PokeHubOptions = {}) {
    this.intervalMs = options.intervalMs ?? POKE_INTERVAL_MS;
    this.clock = options.clock ?? nodeClock;
  }

  /** Calls `listener` with each event delivered on `topic`; returns its removal. */
  listen(topic: string, listener: TopicListener): () => void {
    const listeners = this.byTopic.get(topic) ?? new Set();
    listeners.add(listener);
    this.byTopic.set(topic, listeners);
    let listening = true;
    return () => {
      if (!listening) return;
      listening = false;
      listeners.delete(listener);
      if (listeners.size === 0 && this.byTopic.get(topic) === listeners) this.byTopic.delete(topic);
    };
  }

  /** Delivers `event` (default `poke`) on these topics, at once or at the end of the interval. */
  poke(topics: Iterable<string>, event = 'poke'): void {
    for (const topic of new Set(topics)) {
      const key = `${event} ${topic}`;
      const held = this.held.get(key);
      if (held) held.again = true;
      else if (this.byTopic.has(topic)) this.deliver(topic, event, key);
    }
  }

  private deliver(topic: string, event: string, key: string): void {
    const held = { again: false };
    this.held.set(key, held);
    this.clock.setTimeout(() => {
      this.held.delete(key);
      if (held.again && this.byTopic.has(topic)) this.deliver(topic, event, key);
    }, this.intervalMs);
    for (const listener of [...(this.byTopic.get(topic) ?? [])]) listener(event);
  }

  /** Listeners in all. */
  get size(): number {
    let count = 0;
    for (const listeners of this.byTopic.values()) count += listeners.size;
    return count;
  }
}
