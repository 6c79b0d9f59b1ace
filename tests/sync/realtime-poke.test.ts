/**
 * The app's poke client (src/sync/realtime-poke.ts) against a stand-in for realtime-js's client:
 * which channels it joins and leaves, with which token, when it pulls, and its back-off. The same
 * module against the real socket and supabase-js is tests/sync-integration/public-board-poke.test.ts.
 */
import { describe, expect, it, vi } from 'vitest';
import type { LiveTopics } from '../../src/backend/live-topics.ts';
import { installRealtimePoke, type PokeChannel, type RealtimeLike } from '../../src/sync/realtime-poke.ts';
import { ManualTimers } from './fake-server.ts';

class FakeChannel implements PokeChannel {
  removed = false;
  private poke: (() => void) | null = null;
  private status: ((status: string) => void) | null = null;
  constructor(
    readonly topic: string,
    readonly isPrivate: boolean,
    readonly token: string | null,
  ) {}
  on(_type: 'broadcast', filter: { event: string }, callback: () => void) {
    if (filter.event === 'poke') this.poke = callback;
    return this;
  }
  subscribe(callback: (status: string) => void) {
    this.status = callback;
    return this;
  }
  emit(status: 'SUBSCRIBED' | 'CHANNEL_ERROR' | 'TIMED_OUT' | 'CLOSED' | 'poke') {
    if (status === 'poke') this.poke?.();
    else this.status?.(status);
  }
}

class FakeRealtime implements RealtimeLike {
  channels: FakeChannel[] = [];
  token: string | null = null;
  auths: (string | null)[] = [];
  channel(topic: string, options: { config: { private: boolean } }) {
    const channel = new FakeChannel(topic, options.config.private, this.token);
    this.channels.push(channel);
    return channel;
  }
  async removeChannel(channel: PokeChannel) {
    const fake = channel as FakeChannel;
    fake.removed = true;
    // realtime-js calls the subscribe callback with CLOSED when a channel is removed.
    fake.emit('CLOSED');
    return 'ok';
  }
  setAuth(token: string | null) {
    this.token = token;
    this.auths.push(token);
  }
  open(topic?: string) {
    return this.channels.filter((c) => !c.removed && (topic === undefined || c.topic === topic));
  }
  last(topic: string) {
    return this.channels.filter((c) => c.topic === topic).at(-1)!;
  }
}

class Win extends EventTarget {
  navigator = { onLine: true };
}
class Doc extends EventTarget {
  visibilityState: DocumentVisibilityState = 'visible';
}

const settle = async () => {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
};

class Topics implements LiveTopics {
  private now: readonly string[] = [];
  private readonly listeners = new Set<() => void>();
  current = () => this.now;
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };
  set(next: readonly string[]) {
    this.now = next;
    for (const listener of this.listeners) listener();
  }
}

const OWN = 'user:u1';

function setup(options: { topics?: Topics; token?: () => Promise<string | null> } = {}) {
  const realtime = new FakeRealtime();
  const timers = new ManualTimers();
  const win = new Win();
  const doc = new Doc();
  let tokens = 0;
  const syncs: (() => void)[] = [];
  const engine = { sync: vi.fn(() => new Promise<unknown>((resolve) => syncs.push(() => resolve('synced')))) };
  let refreshed: ((token: string) => void) | null = null;
  const off = installRealtimePoke(engine, {
    realtime,
    userId: 'u1',
    token: options.token ?? (async () => `token-${++tokens}`),
    onToken: (listener) => {
      refreshed = listener;
      return () => (refreshed = null);
    },
    topics: options.topics,
    window: win,
    document: doc,
    timers,
  });
  const finishSyncs = async () => {
    while (syncs.length > 0) {
      syncs.shift()!();
      await settle();
    }
  };
  return { realtime, timers, win, doc, engine, off, finishSyncs, refresh: (token: string) => refreshed?.(token) };
}

describe('installRealtimePoke', () => {
  it('joins the user’s private channel with the session’s token, pulls once joined and on each poke', async () => {
    const t = setup();
    await settle();
    expect(t.realtime.open().map((c) => [c.topic, c.isPrivate, c.token])).toEqual([[OWN, true, 'token-1']]);
    expect(t.engine.sync).not.toHaveBeenCalled();
    t.realtime.last(OWN).emit('SUBSCRIBED');
    expect(t.engine.sync).toHaveBeenCalledTimes(1);
    await t.finishSyncs();
    t.realtime.last(OWN).emit('poke');
    expect(t.engine.sync).toHaveBeenCalledTimes(2);
    // A refreshed token goes to Realtime at once (realtime-js sends it on the joined channels).
    t.refresh('token-fresh');
    expect(t.realtime.auths.at(-1)).toBe('token-fresh');
    t.off();
    expect(t.realtime.open()).toEqual([]);
  });

  it('coalesces a burst of pokes during a pull into one more pull', async () => {
    const t = setup();
    await settle();
    t.realtime.last(OWN).emit('SUBSCRIBED');
    expect(t.engine.sync).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 5; i += 1) t.realtime.last(OWN).emit('poke');
    expect(t.engine.sync).toHaveBeenCalledTimes(1);
    await t.finishSyncs();
    expect(t.engine.sync).toHaveBeenCalledTimes(2);
    await t.finishSyncs();
    expect(t.engine.sync).toHaveBeenCalledTimes(2);
    t.off();
  });

  it('joins the public topics the screens name while they are shown, and leaves them after', async () => {
    const topics = new Topics();
    const t = setup({ topics });
    await settle();
    topics.set(['public:voting']);
    await settle();
    expect(t.realtime.open().map((c) => c.topic)).toEqual([OWN, 'public:voting']);
    t.realtime.last('public:voting').emit('SUBSCRIBED');
    t.realtime.last('public:voting').emit('poke');
    expect(t.engine.sync).toHaveBeenCalledTimes(1);
    topics.set([]);
    await settle();
    expect(t.realtime.open().map((c) => c.topic)).toEqual([OWN]);
    // The user's own channel is never left nor joined twice.
    topics.set([OWN]);
    await settle();
    expect(t.realtime.channels.filter((c) => c.topic === OWN)).toHaveLength(1);
    t.off();
  });

  it('joins again after 1, 2, 5, 10, 10 s with a fresh token when refused, dropped or closed, and pulls once back', async () => {
    const t = setup();
    await settle();
    const failures = ['CHANNEL_ERROR', 'TIMED_OUT', 'CLOSED', 'CHANNEL_ERROR', 'CHANNEL_ERROR'] as const;
    for (const failure of failures) {
      t.realtime.last(OWN).emit(failure);
      await settle();
      expect(t.realtime.last(OWN).removed).toBe(true);
      expect(t.realtime.open()).toEqual([]);
      t.timers.fireAll();
      await settle();
    }
    expect(t.timers.delays).toEqual([1000, 2000, 5000, 10000, 10000]);
    expect(t.realtime.channels.map((c) => c.token)).toEqual([
      'token-1',
      'token-2',
      'token-3',
      'token-4',
      'token-5',
      'token-6',
    ]);
    expect(t.engine.sync).not.toHaveBeenCalled();
    // Back: one pull for what was missed, and the back-off starts again at 1 s.
    t.realtime.last(OWN).emit('SUBSCRIBED');
    expect(t.engine.sync).toHaveBeenCalledTimes(1);
    t.realtime.last(OWN).emit('CHANNEL_ERROR');
    await settle();
    expect(t.timers.delays.at(-1)).toBe(1000);
    t.off();
    expect(t.timers.scheduled).toBe(0);
  });

  it('leaves offline and when hidden, and joins again online and visible', async () => {
    const t = setup();
    await settle();
    t.win.navigator.onLine = false;
    t.win.dispatchEvent(new Event('offline'));
    await settle();
    expect(t.realtime.open()).toEqual([]);
    expect(t.timers.scheduled).toBe(0);
    t.win.navigator.onLine = true;
    t.win.dispatchEvent(new Event('online'));
    await settle();
    expect(t.realtime.open().map((c) => c.topic)).toEqual([OWN]);
    t.doc.visibilityState = 'hidden';
    t.doc.dispatchEvent(new Event('visibilitychange'));
    await settle();
    expect(t.realtime.open()).toEqual([]);
    t.doc.visibilityState = 'visible';
    t.doc.dispatchEvent(new Event('visibilitychange'));
    await settle();
    expect(t.realtime.channels).toHaveLength(3);
    t.off();
    t.win.dispatchEvent(new Event('online'));
    await settle();
    expect(t.realtime.open()).toEqual([]);
    expect(t.realtime.channels).toHaveLength(3);
  });

  it('joins nothing without a session', async () => {
    const t = setup({ token: async () => null });
    await settle();
    expect(t.realtime.channels).toEqual([]);
    t.off();
  });
});
