/**
 * The sync engine against the real local stack, in-process: createStack over a test database,
 * real supabase-js clients whose fetch calls app.fetch, users signed up through supabase-js auth,
 * and "devices" (a Dexie database on its own fake-indexeddb factory plus a SyncEngine) whose
 * transport can be taken offline or made to lose an answer after the server committed.
 */
import { randomUUID } from 'node:crypto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Hono } from 'hono';
import { afterAll, beforeAll } from 'vitest';
import { serverClient } from '../../supabase/functions/_shared/client.ts';
import { createStack } from '../../supabase/local/app.ts';
import { TEST_ANON_KEY, TEST_JWT_SECRET } from './test-keys.ts';
import { confirmEmail } from './confirm-email.ts';
import type { Db } from '../../supabase/local/db.ts';
import { openUserDb, type LinkboardDb } from '../../src/data/db.ts';
import { mutate } from '../../src/data/mutate.ts';
import type { MutationContext } from '../../src/data/mutation-context.ts';
import { withLocalKeys } from '../../src/data/local-keys.ts';
import { syncedTableNames, type SyncedTableName } from '../../src/data/rows.ts';
import { checkRows, localFields } from '../../src/data/synced-tables.ts';
import type { Tier } from '../../src/domain/plans.ts';
import {
  SyncTransportError,
  createSupabaseTransport,
  type PullAnswer,
  type PushAnswer,
  type SyncTransport,
  type WireMutation,
} from '../../src/backend/sync-transport.ts';
import { SyncEngine, type SyncEngineOptions } from '../../src/sync/engine.ts';
import type { SyncStatus } from '../../src/sync/status-store.ts';
import type { Timers } from '../../src/sync/timers.ts';
import { freshDb, type DbKind } from './db.ts';

export const STACK_URL = 'http://127.0.0.1:54321';
export const PASSWORD = 'password-123';

export interface SyncStack {
  db: Db;
  app: Hono;
  fetch: typeof fetch;
  /** A fresh supabase-js client (no session) on the in-process stack. */
  client(): SupabaseClient;
  close(): Promise<void>;
}

export interface StackOptions {
  kind?: DbKind;
  /** An already open, migrated database (the stack does not close it). */
  db?: Db;
}

export async function startSyncStack(options: StackOptions = {}): Promise<SyncStack> {
  const db = options.db ?? (await freshDb(options.kind ?? 'pglite'));
  // bcrypt's lowest cost: these stacks sign up hundreds of users (the property test two a history),
  // and a cost-10 hash is most of a sign-up's time. The default is tested in tests/local/auth-security.
  const app = createStack({ db, jwtSecret: TEST_JWT_SECRET, passwordCost: 4 });
  const inProcess: typeof fetch = async (input, init) => app.fetch(new Request(input, init));
  return {
    db,
    app,
    fetch: inProcess,
    client: () => serverClient(STACK_URL, TEST_ANON_KEY, inProcess),
    close: async () => {
      if (!options.db) await db.close();
    },
  };
}

export interface TestUser {
  id: string;
  email: string;
  tier: Tier;
  /** Signed in through supabase-js auth (sign-up). */
  client: SupabaseClient;
}

let userCounter = 0;

/**
 * Signs a user up through supabase-js auth and confirms the address through the mailed link
 * (unless `confirmed: false`); the tier is then set as the billing webhook would.
 */
export async function signUpUser(
  stack: SyncStack,
  options: { tier?: Tier; email?: string; confirmed?: boolean } = {},
): Promise<TestUser> {
  const email =
    options.email ?? `sync-${process.pid}-${Date.now().toString(36)}-${(userCounter += 1)}@example.com`.toLowerCase();
  const client = stack.client();
  const { data, error } = await client.auth.signUp({ email, password: PASSWORD });
  if (error || !data.user || !data.session) throw new Error(`sign-up failed: ${error?.message ?? 'no session'}`);
  if (options.confirmed !== false) await confirmEmail(stack.fetch, STACK_URL, email);
  const tier = options.tier ?? 'free';
  if (tier !== 'free') {
    await stack.db.query('update public.user_profiles set subscription_tier = $2 where id = $1', [data.user.id, tier]);
  }
  return { id: data.user.id, email, tier, client };
}

/** Network error as fetch raises it when the device is offline. */
export function networkError(): SyncTransportError {
  return new SyncTransportError('network', 'TypeError: fetch failed');
}

/**
 * Wraps the real transport: `offline` makes every call fail before reaching the server;
 * `dropPushAnswers` / `dropPullAnswers` make the next N calls reach the server (which commits)
 * and then lose the answer, as a connection dropped on the way back does.
 */
export class ControlledTransport implements SyncTransport {
  offline = false;
  dropPushAnswers = 0;
  /** Pushes answered normally before `dropPushAnswers` starts dropping (a sync that fails part-way). */
  dropAfterPushes = 0;
  dropPullAnswers = 0;
  /** Runs once, just before the next pull reaches the server (a change made between push and pull). */
  beforePull: (() => Promise<unknown>) | null = null;
  readonly calls = { push: 0, pull: 0, dropped: 0, refused: 0 };

  constructor(private readonly inner: SyncTransport) {}

  async push(mutations: WireMutation[]): Promise<PushAnswer> {
    this.calls.push += 1;
    if (this.offline) {
      this.calls.refused += 1;
      throw networkError();
    }
    const answer = await this.inner.push(mutations);
    if (this.dropPushAnswers > 0 && this.dropAfterPushes > 0) {
      this.dropAfterPushes -= 1;
    } else if (this.dropPushAnswers > 0) {
      this.dropPushAnswers -= 1;
      this.calls.dropped += 1;
      throw networkError();
    }
    return answer;
  }

  async pull(cursor: string | null, limit: number): Promise<PullAnswer> {
    this.calls.pull += 1;
    if (this.offline) {
      this.calls.refused += 1;
      throw networkError();
    }
    const before = this.beforePull;
    this.beforePull = null;
    await before?.();
    const answer = await this.inner.pull(cursor, limit);
    if (this.dropPullAnswers > 0) {
      this.dropPullAnswers -= 1;
      this.calls.dropped += 1;
      throw networkError();
    }
    return answer;
  }
}

/** Timers that never fire on their own: tests drive every sync themselves. */
export class HeldTimers implements Timers {
  scheduled = 0;
  setTimeout = (): unknown => {
    this.scheduled += 1;
    return this.scheduled;
  };
  clearTimeout = (): void => {};
}

export interface Device {
  readonly name: string;
  readonly user: TestUser;
  readonly factory: IDBFactory;
  readonly transport: ControlledTransport;
  db: LinkboardDb;
  engine: SyncEngine;
  readonly rejected: string[];
  readonly statuses: SyncStatus[];
  context(): MutationContext;
  /** Drops the engine and reopens the database from the same factory (in-memory state is lost). */
  restart(): Promise<void>;
  close(): void;
}

export function contextFor(user: Pick<TestUser, 'id' | 'email' | 'tier'>): MutationContext {
  return { userId: user.id, email: user.email, tier: user.tier, now: () => new Date(), timeZone: 'UTC' };
}

/** A directory made on `d` through the app's own mutate (queued until it syncs): its id. */
export async function newDirectory(d: Device, name = 'Dir'): Promise<string> {
  const id = randomUUID();
  await mutate(d.db, 'directory.create', { id, name }, d.context());
  return id;
}

/** A link made on `d` through the app's own mutate (queued until it syncs): its id. */
export async function newLink(d: Device, directoryId: string, title: string, url = `https://x.test/${title}`) {
  const id = randomUUID();
  await mutate(d.db, 'link.create', { id, directory_id: directoryId, url, title }, d.context());
  return id;
}

/** A device of `user`: its own fake-indexeddb, its own engine, the user's supabase-js client. */
export function makeDevice(
  name: string,
  user: TestUser,
  overrides: Partial<SyncEngineOptions> & { client?: SupabaseClient } = {},
): Device {
  const factory = new IDBFactory();
  const { client, ...engineOverrides } = overrides;
  const transport = new ControlledTransport(createSupabaseTransport(client ?? user.client));
  const rejected: string[] = [];
  const statuses: SyncStatus[] = [];
  const context = () => contextFor(user);
  const open = () => openUserDb(user.id, { indexedDB: factory, IDBKeyRange });
  const engineFor = (db: LinkboardDb) =>
    new SyncEngine({
      db,
      transport,
      context,
      timers: new HeldTimers(),
      onRejected: (message) => rejected.push(message),
      onStatus: (status) => statuses.push(status),
      ...engineOverrides,
    });
  const db = open();
  const device: Device = {
    name,
    user,
    factory,
    transport,
    db,
    engine: engineFor(db),
    rejected,
    statuses,
    context,
    async restart() {
      device.engine.stop();
      device.db.close();
      device.db = open();
      await device.db.open();
      device.engine = engineFor(device.db);
    },
    close() {
      device.engine.stop();
      device.db.close();
    },
  };
  return device;
}

export type TableRows = Record<SyncedTableName, Record<string, unknown>[]>;

function byId(a: Record<string, unknown>, b: Record<string, unknown>): number {
  return String(a.id).localeCompare(String(b.id));
}

/**
 * A stored row without its local keys (synced-tables.ts `local`), once they are checked to be
 * what the row's fields give (local-keys.ts): a key that disagrees with its row throws. A link
 * without `_words` is checked as a pull from scratch stores it (its other keys).
 */
function withoutLocalKeys(name: SyncedTableName, row: Record<string, unknown>): Record<string, unknown> {
  const local = localFields(name);
  if (local.length === 0) return row;
  const bare = { ...row };
  for (const field of local) delete bare[field];
  const kept = Object.fromEntries(local.filter((field) => field in row).map((field) => [field, row[field]]));
  // A link a pull from scratch stored has its words in the backlog's store instead (word-backlog.ts).
  const deferred = name === 'saved_links' && !('_words' in row);
  const derived: Record<string, unknown> = { ...withLocalKeys(name, checkRows(name, [bare])[0]!, deferred) };
  const expected = Object.fromEntries(
    local.filter((field) => field in derived).map((field) => [field, derived[field]]),
  );
  if (JSON.stringify(kept) !== JSON.stringify(expected)) {
    throw new Error(
      `${name} ${String(row.id)}: local keys ${JSON.stringify(kept)}, its fields give ${JSON.stringify(expected)}`,
    );
  }
  return bare;
}

/** Every synced table of a device, rows sorted by id, without the local keys. */
export async function localView(db: LinkboardDb): Promise<TableRows> {
  const out = {} as TableRows;
  for (const name of syncedTableNames) {
    const rows = (await db.table(name).toArray()) as Record<string, unknown>[];
    out[name] = rows.map((row) => withoutLocalKeys(name, row)).sort(byId);
  }
  return out;
}

/** What the server shows `user`: a from-scratch sync_pull through supabase-js, tombstones left out. */
export async function serverView(user: TestUser, limit = 5000): Promise<TableRows> {
  const transport = createSupabaseTransport(user.client);
  const rows = new Map<SyncedTableName, Map<string, Record<string, unknown>>>();
  for (const name of syncedTableNames) rows.set(name, new Map());
  let cursor: string | null = null;
  for (let page = 0; page < 1000; page += 1) {
    const answer = await transport.pull(cursor, limit);
    for (const name of syncedTableNames) {
      for (const row of answer.changes[name] ?? []) {
        const table = rows.get(name)!;
        if (row.deleted_at == null) table.set(String(row.id), row);
        else table.delete(String(row.id));
      }
    }
    cursor = answer.cursor;
    if (!answer.more) break;
  }
  const out = {} as TableRows;
  for (const name of syncedTableNames) out[name] = [...rows.get(name)!.values()].sort(byId);
  return out;
}

/**
 * A suite's stack on `kind`, started before its tests and closed after them with every device the
 * suite made through `device` (makeDevice's arguments).
 */
export function syncSuite(kind: DbKind): { readonly stack: SyncStack; device: typeof makeDevice } {
  const devices: Device[] = [];
  let started: SyncStack | undefined;
  beforeAll(async () => {
    started = await startSyncStack({ kind });
  });
  afterAll(async () => {
    for (const made of devices) made.close();
    await started?.close();
  });
  return {
    get stack(): SyncStack {
      if (!started) throw new Error('The stack starts before the suite’s tests.');
      return started;
    },
    device: (...args) => {
      const made = makeDevice(...args);
      devices.push(made);
      return made;
    },
  };
}
