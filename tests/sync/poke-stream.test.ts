import { describe, expect, it, vi } from 'vitest';
import type { LiveTopics } from '../../src/backend/live-topics.ts';
import { installPokeStream, type PokeSource } from '../../src/sync/poke-stream.ts';
import { ManualTimers } from './fake-server.ts';

class FakeSource extends EventTarget implements PokeSource {
  closed = false;
  constructor(readonly url: string) {
    super();
  }
  close() {
    this.closed = true;
  }
  emit(type: 'ready' | 'poke' | 'error') {
    this.dispatchEvent(new Event(type));
  }
}

class Win extends EventTarget {
  navigator = { onLine: true };
}

class Doc extends EventTarget {
  visibilityState: DocumentVisibilityState = 'visible';
}

/** Lets pending promises (the token, the probe, a sync) settle. */
const settle = async () => {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
};

/** Topics a test sets by hand, as screens do through src/backend/live-topics.ts. */
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
  get listening() {
    return this.listeners.size;
  }
}

function setup(options: { probeStatus?: number; topics?: Topics } = {}) {
  const sources: FakeSource[] = [];
  const timers = new ManualTimers();
  const win = new Win();
  const doc = new Doc();
  let tokens = 0;
  const syncs: (() => void)[] = [];
  const engine = {
    sync: vi.fn(() => new Promise<unknown>((resolve) => syncs.push(() => resolve('synced')))),
  };
  const probe = vi.fn(async () => options.probeStatus ?? 401);
  const off = installPokeStream(engine, {
    baseUrl: 'http://stack.test',
    anonKey: 'anon',
    token: async () => `token-${++tokens}`,
    openSource: (url) => {
      const source = new FakeSource(url);
      sources.push(source);
      return source;
    },
    probe,
    topics: options.topics,
    window: win,
    document: doc,
    timers,
  });
  const last = () => sources[sources.length - 1]!;
  const finishSyncs = async () => {
    while (syncs.length > 0) {
      syncs.shift()!();
      await settle();
    }
  };
  return { sources, timers, win, doc, engine, probe, off, last, finishSyncs };
}

describe('installPokeStream', () => {
  it('opens the stream with the token and the API key, and pulls on a poke', async () => {
    const t = setup();
    await settle();
    expect(t.sources).toHaveLength(1);
    const url = new URL(t.last().url);
    expect(url.origin + url.pathname).toBe('http://stack.test/sync/v1/poke');
    expect(url.searchParams.get('access_token')).toBe('token-1');
    expect(url.searchParams.get('apikey')).toBe('anon');
    expect(t.engine.sync).not.toHaveBeenCalled();
    // Listening: one pull for what changed before, then one per poke.
    t.last().emit('ready');
    expect(t.engine.sync).toHaveBeenCalledTimes(1);
    await t.finishSyncs();
    t.last().emit('poke');
    expect(t.engine.sync).toHaveBeenCalledTimes(2);
    t.off();
    expect(t.last().closed).toBe(true);
  });

  it('listens on the public topics the screens name, and opens again when they change', async () => {
    const topics = new Topics();
    topics.set(['public:voting']);
    const t = setup({ topics });
    await settle();
    const listened = () => new URL(t.last().url).searchParams.getAll('topic');
    expect(listened()).toEqual(['public:voting']);
    t.last().emit('ready');
    await t.finishSyncs();
    // The same set again: the stream stays.
    topics.set(['public:voting']);
    await settle();
    expect(t.sources).toHaveLength(1);
    // The board closes: a new stream without the topic, which pulls once when it listens.
    topics.set([]);
    await settle();
    expect(t.sources).toHaveLength(2);
    expect(t.sources[0]!.closed).toBe(true);
    expect(listened()).toEqual([]);
    t.sources[0]!.emit('poke');
    expect(t.engine.sync).toHaveBeenCalledTimes(1);
    t.last().emit('ready');
    expect(t.engine.sync).toHaveBeenCalledTimes(2);
    // While the stream waits to reconnect, a change waits for the retry, which names it.
    t.last().emit('error');
    await settle();
    topics.set(['public:voting']);
    await settle();
    expect(t.sources).toHaveLength(2);
    t.timers.fireAll();
    await settle();
    expect(t.sources).toHaveLength(3);
    expect(listened()).toEqual(['public:voting']);
    t.off();
    expect(topics.listening).toBe(0);
  });

  it('coalesces a burst of pokes during a pull into one more pull', async () => {
    const t = setup();
    await settle();
    t.last().emit('ready');
    await t.finishSyncs();
    t.engine.sync.mockClear();
    for (let i = 0; i < 5; i += 1) t.last().emit('poke');
    expect(t.engine.sync).toHaveBeenCalledTimes(1);
    await t.finishSyncs();
    expect(t.engine.sync).toHaveBeenCalledTimes(2);
    t.last().emit('poke');
    expect(t.engine.sync).toHaveBeenCalledTimes(3);
    await t.finishSyncs();
    expect(t.engine.sync).toHaveBeenCalledTimes(3);
    t.off();
  });

  it('reconnects after 1, 2, 5, 10, 10 s with a fresh token, and pulls once when it is back', async () => {
    const t = setup();
    await settle();
    for (let i = 0; i < 5; i += 1) {
      t.last().emit('error');
      await settle();
      expect(t.last().closed).toBe(true);
      t.timers.fireAll();
      await settle();
    }
    expect(t.timers.delays).toEqual([1000, 2000, 5000, 10000, 10000]);
    expect(t.sources.map((s) => new URL(s.url).searchParams.get('access_token'))).toEqual([
      'token-1',
      'token-2',
      'token-3',
      'token-4',
      'token-5',
      'token-6',
    ]);
    // The endpoint answered 401, not 404, so it was probed while never seen working.
    expect(t.probe).toHaveBeenCalled();
    // Back: a pull for what was missed, and the back-off starts again at 1 s.
    t.last().emit('ready');
    expect(t.engine.sync).toHaveBeenCalledTimes(1);
    t.probe.mockClear();
    t.last().emit('error');
    await settle();
    expect(t.probe).not.toHaveBeenCalled();
    expect(t.timers.delays.at(-1)).toBe(1000);
    t.off();
    expect(t.timers.scheduled).toBe(0);
  });

  it('stops for good when the backend has no poke endpoint (404)', async () => {
    const t = setup({ probeStatus: 404 });
    await settle();
    t.last().emit('error');
    await settle();
    expect(t.timers.scheduled).toBe(0);
    t.win.dispatchEvent(new Event('online'));
    await settle();
    expect(t.sources).toHaveLength(1);
    t.off();
  });

  it('closes offline and when hidden, and opens again online and visible', async () => {
    const t = setup();
    await settle();
    t.last().emit('ready');
    t.win.navigator.onLine = false;
    t.win.dispatchEvent(new Event('offline'));
    expect(t.last().closed).toBe(true);
    t.last().emit('error');
    await settle();
    expect(t.timers.scheduled).toBe(0);
    t.win.navigator.onLine = true;
    t.win.dispatchEvent(new Event('online'));
    await settle();
    expect(t.sources).toHaveLength(2);
    expect(t.last().closed).toBe(false);

    t.doc.visibilityState = 'hidden';
    t.doc.dispatchEvent(new Event('visibilitychange'));
    expect(t.last().closed).toBe(true);
    t.doc.visibilityState = 'visible';
    t.doc.dispatchEvent(new Event('visibilitychange'));
    await settle();
    expect(t.sources).toHaveLength(3);
    t.off();
    expect(t.last().closed).toBe(true);
    t.win.dispatchEvent(new Event('online'));
    await settle();
    expect(t.sources).toHaveLength(3);
  });

  it('does not open while offline at start, nor without a session', async () => {
    const win = new Win();
    win.navigator.onLine = false;
    const openSource = vi.fn();
    const off = installPokeStream(
      { sync: vi.fn(async () => 'synced') },
      {
        baseUrl: 'http://stack.test',
        anonKey: 'anon',
        token: async () => 'x',
        openSource,
        window: win,
        document: new Doc(),
      },
    );
    await settle();
    expect(openSource).not.toHaveBeenCalled();
    off();
    const signedOut = installPokeStream(
      { sync: vi.fn(async () => 'synced') },
      {
        baseUrl: 'http://stack.test',
        anonKey: 'anon',
        token: async () => null,
        openSource,
        window: new Win(),
        document: new Doc(),
      },
    );
    await settle();
    expect(openSource).not.toHaveBeenCalled();
    signedOut();
  });
});
