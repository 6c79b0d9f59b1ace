/**
 * Who listens on which poke topic (docs/sync-protocol.md, "Poke"). Topics are named as Supabase
 * Realtime names its channels: `user:<id>` (private: that user's own devices) and `public:<name>`
 * (a screen open on what every signed-in user sees, such as `public:voting` for the voting board).
 * A topic is poked at most once per interval: the first poke goes at once, any that follow within
 * the interval make one trailing poke at its end, so a busy poll costs each listener a few pulls a
 * second and the last change is never missed.
 */

export interface PokeLimits {
  /** Open streams one user may hold (tabs and devices). */
  perUser: number;
  /** Open streams the stack holds in all. */
  total: number;
}

/** The timers the throttle runs on (tests hold them). */
export interface PokeClock {
  setTimeout(callback: () => void, ms: number): unknown;
}

export interface PokeHubOptions {
  limits?: PokeLimits;
  /** The shortest time between two pokes of one topic. */
  intervalMs?: number;
  clock?: PokeClock;
}

export const DEFAULT_POKE_LIMITS: PokeLimits = { perUser: 10, total: 1000 };
export const POKE_INTERVAL_MS = 250;
/** Public topics one stream may listen on besides its user's own. */
export const MAX_PUBLIC_TOPICS = 8;
const PUBLIC_TOPIC = /^public:[a-z0-9_-]{1,64}$/;

export const userTopic = (userId: string): string => `user:${userId}`;
/** Whether a client may listen on this topic by name: only public ones (its own user topic is implied). */
export const isPublicTopic = (topic: string): boolean => PUBLIC_TOPIC.test(topic);

/** Node's timers, not holding the process open for a trailing poke. */
const nodeClock: PokeClock = {
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    handle.unref?.();
    return handle;
  },
};

export class PokeHub {
  private readonly byTopic = new Map<string, Set<() => void>>();
  private readonly byUser = new Map<string, number>();
  /** Topics poked within the last interval; `again` when another poke came since. */
  private readonly held = new Map<string, { again: boolean }>();
  private readonly limits: PokeLimits;
  private readonly intervalMs: number;
  private readonly clock: PokeClock;
  private open = 0;

  constructor(options: PokeHubOptions = {}) {
    this.limits = options.limits ?? DEFAULT_POKE_LIMITS;
    this.intervalMs = options.intervalMs ?? POKE_INTERVAL_MS;
    this.clock = options.clock ?? nodeClock;
  }

  /**
   * Adds a stream of `userId` listening on its user topic and on `topics` (public ones); null when
   * the user's or the stack's cap is reached. Returns its removal.
   */
  subscribe(userId: string, topics: readonly string[], listener: () => void): (() => void) | null {
    const mine = this.byUser.get(userId) ?? 0;
    if (mine >= this.limits.perUser || this.open >= this.limits.total) return null;
    const all = [...new Set([userTopic(userId), ...topics])];
    for (const topic of all) {
      const listeners = this.byTopic.get(topic) ?? new Set();
      listeners.add(listener);
      this.byTopic.set(topic, listeners);
    }
    this.byUser.set(userId, mine + 1);
    this.open += 1;
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      for (const topic of all) {
        const listeners = this.byTopic.get(topic);
        listeners?.delete(listener);
        if (listeners?.size === 0) this.byTopic.delete(topic);
      }
      const left = (this.byUser.get(userId) ?? 1) - 1;
      if (left === 0) this.byUser.delete(userId);
      else this.byUser.set(userId, left);
      this.open -= 1;
    };
  }

  /** Pokes every stream listening on these topics, at once or at the end of the topic's interval. */
  poke(topics: Iterable<string>): void {
    for (const topic of new Set(topics)) {
      const held = this.held.get(topic);
      if (held) held.again = true;
      else if (this.byTopic.has(topic)) this.deliver(topic);
    }
  }

  private deliver(topic: string): void {
    const held = { again: false };
    this.held.set(topic, held);
    this.clock.setTimeout(() => {
      this.held.delete(topic);
      if (held.again && this.byTopic.has(topic)) this.deliver(topic);
    }, this.intervalMs);
    for (const listener of [...(this.byTopic.get(topic) ?? [])]) listener();
  }

  /** Open streams in all. */
  get size(): number {
    return this.open;
  }
}
