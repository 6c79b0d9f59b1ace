/**
 * The sync engine's transport over supabase-js (docs/sync-protocol.md): `sync_push` and
 * `sync_pull` RPCs, with errors sorted into what the engine does about them.
 */
import type { LinkboardClient } from './page-client.ts';
import * as v from 'valibot';
import { learnServerTime } from './server-clock.ts';

/**
 * The answers' envelopes as schemas that also give their types. Rows are
 * plain objects here; each table's rows are checked against its declaration where they are
 * applied (src/sync/apply-rows.ts), since this module imports nothing of ours.
 */
const wireRows = v.record(v.string(), v.array(v.record(v.string(), v.unknown())));
const deletedIds = v.record(v.string(), v.array(v.string()));

const pushResult = v.object({
  id: v.string(),
  status: v.picklist(['applied', 'rejected']),
  code: v.nullish(v.string()),
  message: v.nullish(v.string()),
  rows: v.optional(wireRows),
  deleted: v.optional(deletedIds),
});

const pushAnswer = v.object({ results: v.array(pushResult) });

const pullAnswer = v.object({
  cursor: v.string(),
  more: v.boolean(),
  reset: v.optional(v.boolean(), false),
  changes: v.optional(wireRows, {}),
  purge: v.optional(v.object({ directory_ids: v.array(v.string()) }), { directory_ids: [] }),
});

/** Rows on the wire, by table name (`to_jsonb(row)`). */
export type WireRows = Partial<v.InferOutput<typeof wireRows>>;
export type PushResult = v.InferOutput<typeof pushResult>;
export type PushAnswer = v.InferOutput<typeof pushAnswer>;
export type PullAnswer = v.InferOutput<typeof pullAnswer>;

export interface WireMutation {
  id: string;
  name: string;
  args: Record<string, unknown>;
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

/**
 * The answer checked against its schema (absent optional parts filled in), or a
 * 'server' SyncTransportError that says what is wrong (the engine shows it as a sync error and
 * retries with back-off; nothing of the answer is written).
 */
function checked<T>(schema: v.GenericSchema<unknown, T>, fn: string, value: unknown): T {
  const result = v.safeParse(schema, value);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const message = `Malformed answer from ${fn}: ${v.getDotPath(issue) ?? 'answer'}: ${issue.message}`;
  console.error(message, result.issues);
  throw new SyncTransportError('server', message);
}

export const checkPushAnswer = (value: unknown): PushAnswer => checked(pushAnswer, 'sync_push', value);
export const checkPullAnswer = (value: unknown): PullAnswer => checked(pullAnswer, 'sync_pull', value);

interface RpcError {
  message?: string;
  code?: string;
}

const NETWORK_MESSAGE = /TypeError|FetchError|fetch failed|Failed to fetch|NetworkError|Load failed/i;

/** SQLSTATEs and PostgREST codes of a connection to the database lost or refused. */
const LOST_CONNECTION = /^(08...|57P0[123]|PGRST00[01])$/;

export function classifyRpcError(status: number | null | undefined, error: RpcError | null): SyncTransportError {
  const message = error?.message ?? `Request failed with status ${status ?? 'unknown'}`;
  if (!status || (status === 0 && NETWORK_MESSAGE.test(message))) {
    return new SyncTransportError('network', message, status ?? null);
  }
  if (status === 401 || error?.code === 'PGRST301' || error?.code === 'PGRST303') {
    return new SyncTransportError('auth', message, status);
  }
  if (status === 502 || status === 503 || status === 504) return new SyncTransportError('unavailable', message, status);
  // A 5xx for a lost database connection (PostgREST answers a call cut by a restart with its
  // SQLSTATE, 57P01, as 500): nothing was committed, retried like a 503 (docs/faults.md).
  if (status >= 500 && LOST_CONNECTION.test(error?.code ?? '')) {
    return new SyncTransportError('unavailable', message, status);
  }
  return new SyncTransportError('server', message, status);
}

export function createSupabaseTransport(client: Pick<LinkboardClient, 'rpc'>): SyncTransport {
  async function call<T>(fn: string, args: Record<string, unknown>): Promise<T> {
    let answer: { data: unknown; error: RpcError | null; status: number };
    const sentAt = Date.now();
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
    // Every answer says what the server's clock reads (docs/sync-protocol.md).
    learnServerTime((data as { server_time_ms?: unknown }).server_time_ms, sentAt, Date.now());
    return data as T;
  }

  return {
    push: (mutations) => call<PushAnswer>('sync_push', { p_mutations: mutations }),
    pull: (cursor, limit) => call<PullAnswer>('sync_pull', { p_cursor: cursor, p_limit: limit }),
  };
}
