/**
 * The server's poke through Supabase Realtime (docs/sync-protocol.md, "Poke"), the same for a
 * hosted project and the local stack: while online, visible and signed in, the page holds the
 * private channel `user:<id>` and the public topics the screens on show name
 * (src/backend/live-topics.ts: the voting board's `public:voting`), with the session's access
 * token (set again whenever supabase-js refreshes it). A `poke` broadcast means another device or
 * member committed a change this user can see: pull now. Pokes arriving while a pull runs make one
 * more pull, not one each; each channel that is (re)subscribed pulls once for what it may have
 * missed before it listened. A channel that errors, times out or is closed by the server (a
 * refused or expired token) is removed and joined again after 1, 2, 5, 10 s with the token read
 * again. The 30 s poll (triggers.ts) stays the fallback.
 */
import type { LiveTopics } from '../backend/live-topics.ts';
import { backoffDelay, realTimers, type TimerHandle, type Timers } from './timers.ts';

/** The part of a realtime-js RealtimeChannel this module uses. */
export interface PokeChannel {
  on(type: 'broadcast', filter: { event: string }, callback: () => void): PokeChannel;
  subscribe(callback: (status: string) => void): PokeChannel;
}

/** The part of realtime-js's RealtimeClient (supabase.realtime) this module uses. */
export interface RealtimeLike {
  channel(topic: string, options: { config: { private: boolean } }): PokeChannel;
  removeChannel(channel: PokeChannel): Promise<unknown>;
  setAuth(token: string | null): Promise<unknown> | unknown;
}

interface EventTarget {
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
}

export interface RealtimePokeOptions {
  realtime: RealtimeLike;
  userId: string;
  /** The current access token (refreshed when needed), or null when signed out. */
  token: () => Promise<string | null>;
  /** Calls back with each new access token supabase-js gets (TOKEN_REFRESHED); returns its removal. */
  onToken?: (listener: (token: string) => void) => () => void;
  /** The public topics to listen on besides the user's own (none by default). */
  topics?: LiveTopics;
  window?: EventTarget & { navigator?: { onLine: boolean } };
  document?: EventTarget & { visibilityState: DocumentVisibilityState };
  timers?: Timers;
}

export const POKE_EVENT = 'poke';

interface Joined {
  channel: PokeChannel;
  retired: boolean;
}

/** Listens for pokes for this engine; returns the function that stops for good. */
export function installRealtimePoke(engine: { sync(): Promise<unknown> }, options: RealtimePokeOptions): () => void {
  const win = options.window ?? (typeof window === 'undefined' ? undefined : window);
  const doc = options.document ?? (typeof document === 'undefined' ? undefined : document);
  const timers = options.timers ?? realTimers;
  const { realtime } = options;
  const own = `user:${options.userId}`;

  let stopped = false;
  const joined = new Map<string, Joined>();
  const retries = new Map<string, TimerHandle>();
  const failures = new Map<string, number>();
  /** Bumped by every stop, so a late token of an older start is ignored. */
  let generation = 0;

  let pulling = false;
  let again = false;
  const pull = () => {
    if (pulling) {
      again = true;
      return;
    }
    pulling = true;
    void engine
      .sync()
      .catch(() => undefined)
      .finally(() => {
        pulling = false;
        if (again && !stopped) {
          again = false;
          pull();
        }
      });
  };

  const wanted = () => !stopped && (win?.navigator?.onLine ?? true) && (!doc || doc.visibilityState === 'visible');
  const topics = () => (wanted() ? [own, ...(options.topics?.current() ?? []).filter((topic) => topic !== own)] : []);

  const leave = (topic: string) => {
    const entry = joined.get(topic);
    joined.delete(topic);
    const retry = retries.get(topic);
    if (retry !== undefined) timers.clearTimeout(retry);
    retries.delete(topic);
    if (!entry) return;
    entry.retired = true;
    void Promise.resolve(realtime.removeChannel(entry.channel)).catch(() => undefined);
  };

  const join = (topic: string) => {
    const entry: Joined = { channel: realtime.channel(topic, { config: { private: true } }), retired: false };
    joined.set(topic, entry);
    entry.channel
      .on('broadcast', { event: POKE_EVENT }, () => {
        if (!entry.retired) pull();
      })
      .subscribe((status) => {
        if (entry.retired) return;
        if (status === 'SUBSCRIBED') {
          failures.delete(topic);
          // Pokes sent before this channel listened (at start, while it was away) are lost: pull once.
          pull();
          return;
        }
        if (status !== 'CHANNEL_ERROR' && status !== 'TIMED_OUT' && status !== 'CLOSED') return;
        // Refused, dropped or closed by the server: join again later, with the token read again.
        leave(topic);
        const count = (failures.get(topic) ?? 0) + 1;
        failures.set(topic, count);
        retries.set(
          topic,
          timers.setTimeout(() => {
            retries.delete(topic);
            void sync();
          }, backoffDelay(count)),
        );
      });
  };

  /** Joins the topics wanted now and leaves the others, with the token read first. */
  const sync = async () => {
    const mine = generation;
    const want = topics();
    for (const topic of [...joined.keys()]) if (!want.includes(topic)) leave(topic);
    const missing = want.filter((topic) => !joined.has(topic) && !retries.has(topic));
    if (missing.length === 0) return;
    const token = await options.token().catch(() => null);
    if (mine !== generation || !wanted()) return;
    if (!token) return; // Signed out: sign-in starts a new session and new channels.
    await realtime.setAuth(token);
    if (mine !== generation) return;
    for (const topic of topics()) if (!joined.has(topic) && !retries.has(topic)) join(topic);
  };

  const stopAll = () => {
    generation += 1;
    for (const topic of [...new Set([...joined.keys(), ...retries.keys()])]) leave(topic);
    failures.clear();
  };
  const resume = () => void sync();
  const onVisibility = () => (wanted() ? resume() : stopAll());
  const offTopics = options.topics?.subscribe(resume);
  const offToken = options.onToken?.((token) => {
    if (!stopped) void Promise.resolve(realtime.setAuth(token)).catch(() => undefined);
  });
  win?.addEventListener('online', resume);
  win?.addEventListener('offline', stopAll);
  doc?.addEventListener('visibilitychange', onVisibility);
  resume();

  return () => {
    stopped = true;
    stopAll();
    offTopics?.();
    offToken?.();
    win?.removeEventListener('online', resume);
    win?.removeEventListener('offline', stopAll);
    doc?.removeEventListener('visibilitychange', onVisibility);
  };
}
