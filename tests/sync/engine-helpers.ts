/**
 * The shared setup of the sync engine's tests (tests/sync/engine-*.test.ts): a fresh fake
 * IndexedDB holding one synced directory, a fake server and manual timers before each test.
 * The bindings are live: a test file reads the current `db`, `server`, … after `freshEngine`.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { openUserDb, type LinkboardDb } from '../../src/data/db.ts';
import { mutate } from '../../src/data/mutate.ts';
import { SyncEngine, type SyncEngineOptions } from '../../src/sync/engine.ts';
import type { SyncStatus } from '../../src/sync/status-store.ts';
import { ctx } from '../data/helpers.ts';
import { ME, makeDirectory, uuid } from '../support/builders.ts';
import { FakeServer, ManualTimers } from './fake-server.ts';

export { IDBKeyRange };
export let factory: IDBFactory;
export let db: LinkboardDb;
export let server: FakeServer;
export let timers: ManualTimers;
export let statuses: SyncStatus[];
export let rejected: string[];
export const pro = ctx({ tier: 'pro' });
export const dir = makeDirectory({ txid: '0' });

/** Puts `reopened` in place of the test's database (a reopen of the same IndexedDB). */
export function setDb(reopened: LinkboardDb): void {
  db = reopened;
}

export function engine(overrides: Partial<SyncEngineOptions> = {}): SyncEngine {
  return new SyncEngine({
    db,
    transport: server.transport(),
    context: () => pro,
    timers,
    onStatus: (status) => statuses.push(status),
    onRejected: (message) => rejected.push(message),
    ...overrides,
  });
}

/** Each test's start (a `beforeEach`): a new device that has pulled one directory. */
export async function freshEngine(): Promise<void> {
  factory = new IDBFactory();
  db = openUserDb(ME, { indexedDB: factory, IDBKeyRange });
  server = new FakeServer(ME);
  timers = new ManualTimers();
  statuses = [];
  rejected = [];
  server.write('link_directories', { ...dir });
  await engine().sync();
}

export const addLink = (title = 'A', id = uuid()) =>
  mutate(db, 'link.create', { id, directory_id: dir.id, url: 'https://a.test', title }, pro).then(() => id);
