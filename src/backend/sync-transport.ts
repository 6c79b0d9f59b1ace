/**
 * The sync engine's transport over supabase-js (docs/sync-protocol.md): `sync_push` and
 * `sync_pull` RPCs, with errors sorted into what the engine does about them.
 */
import type { SupabaseClient } from '@supabase/supabase-js';

/** Rows on the wire, by table name (`to_jsonb(row)`). */
export type WireRows = Partial<Record<string, Record<string, unknown>[]>>;

export interface WireMutation {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

export interface PushResult {
  id: string;
  status: 'applied' | 'rejected';
  code?: string;
  message?: string;
  rows?: WireRows;
  deleted?: Partial<Record<string, string[]>>;
}

export interface PushAnswer {
  results: PushResult[];
}

export interface PullAnswer {
  cursor: string;
  more: boolean;
  reset: boolean;
  changes: WireRows;
  purge: { directory_ids: string[] };
}

export interface SyncTransport {
  push(mutations: WireMutation[]): Promise<PushAnswer>;
  pull(cursor: string | null, limit: number): Promise<PullAnswer>;
}

/**
 * network: no answer (offline, DNS, fetch TypeError); unavailable: 502, 503, 504; both keep the
 * queue and retry with back-off. auth: 401, refresh the session then retry. server: any other
 * failure, with the server's message.
 */
export type TransportErrorKind = 'network' | 'unavailable' | 'auth' | 'server';

export class SyncTransportError extends Error {
  readonly kind: TransportErrorKind;
  readonly status: number | null;

  constructor(kind: TransportErrorKind, message: string, status: number | null = null) {
    super(message);
    this.name = 'SyncTransportError';
    this.kind = kind;
    this.status = status;
  }
}

interface RpcError {
  message?: string;
  code?: string;
}

const NETWORK_MESSAGE = /TypeError|FetchError|fetch failed|Failed to fetch|NetworkError|Load failed/i;

export function classifyRpcError(status: number | null | undefined, error: RpcError | null): SyncTransportError {
  const message = error?.message ?? `Request failed with status ${status ?? 'unknown'}`;
  if (!status || (status === 0 && NETWORK_MESSAGE.test(message))) {
    return new SyncTransportError('network', message, status ?? null);
  }
  if (status === 401 || error?.code === 'PGRST301' || error?.code === 'PGRST303') {
    return new SyncTransportError('auth', message, status);
  }
  if (status === 502 || status === 503 || status === 504) return new SyncTransportError('unavailable', message, status);
  return new SyncTransportError('server', message, status);
}

export function createSupabaseTransport(client: SupabaseClient): SyncTransport {
  async function call<T>(fn: string, args: Record<string, unknown>): Promise<T> {
    let answer: { data: unknown; error: RpcError | null; status: number };
    try {
      answer = await client.rpc(fn, args);
    } catch (error) {
      throw new SyncTransportError('network', error instanceof Error ? error.message : String(error));
    }
    const { data, error, status } = answer;
    if (error || status >= 400 || !status) throw classifyRpcError(status, error);
    if (data === null || typeof data !== 'object') {
      throw new SyncTransportError('server', `Malformed answer from ${fn}`, status);
    }
    return data as T;
  }

  return {
    push: (mutations) => call<PushAnswer>('sync_push', { p_mutations: mutations }),
    pull: (cursor, limit) => call<PullAnswer>('sync_pull', { p_cursor: cursor, p_limit: limit }),
  };
}
