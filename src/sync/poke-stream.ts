/**
 * The server's poke (docs/sync-protocol.md, "Poke"): while online, visible and signed in, the page
 * holds a Server-Sent Events stream to `<backend>/sync/v1/poke`; each `poke` means another device
 * or member committed a change this user can see, so pull now. Pokes arriving while a pull runs
 * make one more pull, not one each; each (re)opened stream pulls once for what it may have
 * missed before it listened. Besides the user's own topic the stream listens on the public topics
 * the screens on show name (src/backend/live-topics.ts: the voting board's `public:voting`); when
 * they change the stream is opened again with the new set. The stream reconnects with back-off
 * (1, 2, 5, 10 s) and a fresh token; a backend without the endpoint (404) is not asked again. The
 * 30 s poll (triggers.ts) stays the fallback.
 */
import type { LiveTopics } from '../backend/live-topics.ts';
import { backoffDelay, realTimers, type TimerHandle, type Timers } from './timers.ts';

/** The part of the browser's EventSource this module uses. */
export interface PokeSource {
  addEventListener(type: string, listener: () => void): void;
  close(): void;
}

interface EventTarget {
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
}

export interface PokeStreamOptions {
  /** The backend's base URL (src/backend/config.ts). */
  baseUrl: string;
  anonKey: string;
  /** The current access token (refreshed when needed), or null when signed out. */
  token: () => Promise<string | null>;
  /** The public topics to listen on besides the user's own (none by default). */
  topics?: LiveTopics;
  openSource?: (url: string) => PokeSource;
  /** Whether the endpoint exists: the status of a request without a token (401 when it does). */
  probe?: (url: string) => Promise<number>;
  window?: EventTarget & { navigator?: { onLine: boolean } };
  document?: EventTarget & { visibilityState: DocumentVisibilityState };
  timers?: Timers;
}

export const POKE_PATH = '/sync/v1/poke';

export function pokeUrl(baseUrl: string, anonKey: string, token?: string, topics: readonly string[] = []): string {
  const url = new URL(POKE_PATH, baseUrl);
  url.searchParams.set('apikey', anonKey);
  if (token !== undefined) url.searchParams.set('access_token', token);
  for (const topic of topics) url.searchParams.append('topic', topic);
  return url.toString();
}

const browserSource = (url: string): PokeSource => new EventSource(url);
const fetchStatus = async (url: string): Promise<number> => (await fetch(url, { cache: 'no-store' })).status;

/** Opens the poke stream for this engine; returns the function that closes it for good. */
export function installPokeStream(engine: { sync(): Promise<unknown> }, options: PokeStreamOptions): () => void {
  const win = options.window ?? (typeof window === 'undefined' ? undefined : window);
  const doc = options.document ?? (typeof document === 'undefined' ? undefined : document);
  const timers = options.timers ?? realTimers;
  const openSource = options.openSource ?? browserSource;
  const probe = options.probe ?? fetchStatus;
  const topics = () => options.topics?.current() ?? [];

  let stopped = false;
  let source: PokeSource | null = null;
  /** The topics the open stream listens on. */
  let sourceTopics = '';
  let retry: TimerHandle | null = null;
  let failures = 0;
  /** A stream answered once: the endpoint exists, no need to probe. */
  let known = false;
  /** Bumped on every open and close, so a late token or probe answer of an old attempt is ignored. */
  let attempt = 0;

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

  const close = () => {
    attempt += 1;
    source?.close();
    source = null;
    if (retry !== null) timers.clearTimeout(retry);
    retry = null;
  };

  const scheduleRetry = () => {
    failures += 1;
    retry = timers.setTimeout(() => {
      retry = null;
      void open();
    }, backoffDelay(failures));
  };

  const fail = async (mine: number) => {
    source?.close();
    source = null;
    if (!known) {
      const status = await probe(pokeUrl(options.baseUrl, options.anonKey)).catch(() => 0);
      if (mine !== attempt) return;
      if (status === 404) {
        stopped = true;
        return;
      }
    }
    if (mine === attempt && wanted()) scheduleRetry();
  };

  const open = async () => {
    close();
    if (!wanted()) return;
    const mine = attempt;
    const token = await options.token().catch(() => null);
    if (mine !== attempt || !wanted()) return;
    if (!token) return; // Signed out: sign-in starts a new session and a new stream.
    const listening = topics();
    const next = openSource(pokeUrl(options.baseUrl, options.anonKey, token, listening));
    source = next;
    sourceTopics = listening.join(' ');
    let lost = false;
    next.addEventListener('ready', () => {
      if (mine !== attempt) return;
      known = true;
      failures = 0;
      // Pokes sent before this stream was listening (at start, while it was away) are lost: pull once.
      pull();
    });
    next.addEventListener('poke', () => {
      if (mine === attempt) pull();
    });
    // Any error (a refused token, a dropped or expired stream): reopen ourselves, with a fresh token.
    next.addEventListener('error', () => {
      if (lost || mine !== attempt) return;
      lost = true;
      void fail(mine);
    });
  };

  const reopen = () => void open();
  const onVisibility = () => (wanted() ? (source === null && retry === null ? reopen() : undefined) : close());
  // A stream being opened or retried reads the topics when it opens; an open one opens again.
  const onTopics = () => {
    if (source !== null && topics().join(' ') !== sourceTopics) reopen();
  };
  const offTopics = options.topics?.subscribe(onTopics);
  win?.addEventListener('online', reopen);
  win?.addEventListener('offline', close);
  doc?.addEventListener('visibilitychange', onVisibility);
  reopen();

  return () => {
    stopped = true;
    close();
    offTopics?.();
    win?.removeEventListener('online', reopen);
    win?.removeEventListener('offline', close);
    doc?.removeEventListener('visibilitychange', onVisibility);
  };
}
