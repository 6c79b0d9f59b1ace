/**
 * Validated boundaries on a real Dexie over fake-indexeddb: outbox entries of
 * an older version are upgraded when the engine starts, entries that cannot be are failed with a
 * reason the panel shows, and an invalid pulled row or push answer is a clear sync error that
 * writes nothing.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { openUserDb, type LinkboardDb } from '../../src/data/db.ts';
import { mutate } from '../../src/data/mutate.ts';
import { MutationError } from '../../src/data/mutation-error.ts';
import {
  DAMAGED_ENTRY,
  NEWER_ENTRY,
  OUTBOX_VERSION,
  readOutbox,
  upgradeEntry,
  upgradeOutbox,
} from '../../src/data/outbox.ts';
import { SyncEngine } from '../../src/sync/engine.ts';
import type { SyncStatus } from '../../src/sync/status-store.ts';
import { ctx } from '../data/helpers.ts';
import { ME, makeDirectory, uuid } from '../support/builders.ts';
import { FakeServer, ManualTimers } from './fake-server.ts';

let db: LinkboardDb;
let server: FakeServer;
let statuses: SyncStatus[];
const pro = ctx({ tier: 'pro' });
const dir = makeDirectory({ txid: '0' });

const engine = () =>
  new SyncEngine({
    db,
    transport: server.transport(),
    context: () => pro,
    timers: new ManualTimers(),
    onStatus: (status) => statuses.push(status),
  });

/** An entry as the app before versions wrote it (no `version`). */
const v1Entry = (args: Record<string, unknown>, name = 'link.create') => ({
  id: uuid(),
  name,
  args,
  created_at: '2026-03-15T11:00:00.000Z',
  attempts: 0,
  status: 'pending',
});

beforeEach(() => {
  db = openUserDb(ME, { indexedDB: new IDBFactory(), IDBKeyRange });
  server = new FakeServer(ME);
  statuses = [];
  server.write('link_directories', { ...dir });
});

describe('outbox versions', () => {
  it('writes the current version', async () => {
    await mutate(db, 'directory.create', { id: uuid(), name: 'A' }, pro);
    expect((await db.outbox.toArray())[0]?.version).toBe(OUTBOX_VERSION);
  });

  it('upgrades a version-1 entry on start and sends it', async () => {
    const link = uuid();
    await db.outbox.add(v1Entry({ id: link, directory_id: dir.id, url: 'https://a.test', title: 'A' }) as never);
    expect(await engine().sync()).toBe('synced');
    expect(server.table('saved_links').get(link)).toMatchObject({ title: 'A' });
    expect(await db.outbox.count()).toBe(0);
  });

  it('fails, with a reason, entries that cannot be upgraded or are damaged; the rest still goes', async () => {
    const good = uuid();
    await db.outbox.bulkAdd([
      { ...v1Entry({ id: uuid(), directory_id: dir.id, url: 'https://a.test', title: 'A' }), version: 99 },
      v1Entry({ id: 42, title: 'not an id' }),
      v1Entry({ id: uuid() }, 'link.explode'),
      v1Entry({ id: good, directory_id: dir.id, url: 'https://b.test', title: 'B' }),
    ] as never);
    expect(await engine().sync()).toBe('error');
    const failed = await db.outbox.where('status').equals('failed').toArray();
    expect(failed.map((row) => row.last_error)).toEqual([
      NEWER_ENTRY,
      expect.stringContaining(DAMAGED_ENTRY),
      expect.stringContaining(DAMAGED_ENTRY),
    ]);
    expect(failed[1]?.last_error).toContain('id');
    expect(server.table('saved_links').get(good)).toMatchObject({ title: 'B' });
    expect(statuses.at(-1)).toMatchObject({ state: 'error', failed: 3, pending: 0 });
    // A retried damaged entry is failed again, never sent; discard removes it.
    const retried = engine();
    expect(await retried.retry(failed[1]!.id)).toBe('error');
    expect(await db.outbox.where('status').equals('failed').count()).toBe(3);
    expect(server.pushed.flat().map((m) => m.id)).not.toContain(failed[1]!.id);
    await retried.discard(failed[1]!.id);
    expect(await db.outbox.count()).toBe(2);
  });

  it('checks entries as the rebase reads them: damaged ones are never applied', async () => {
    await db.outbox.bulkAdd([
      v1Entry({ id: 1 }),
      v1Entry({ id: uuid(), directory_id: dir.id, url: 'https://a.test', title: 'A' }),
    ] as never);
    const { valid, invalid } = await readOutbox(db);
    expect(valid.map((row) => row.version)).toEqual([OUTBOX_VERSION]);
    expect(invalid).toHaveLength(1);
    expect(await upgradeOutbox(db)).toBe(1);
    expect(typeof upgradeEntry({ ...v1Entry({ id: uuid() }, 'directory.delete') })).toBe('object');
  });
});

describe('mutation args', () => {
  it('refuses args of the wrong shape that the checks let through, writing nothing', async () => {
    await db.link_directories.put(dir);
    const error = await mutate(db, 'directory.update', { id: dir.id, is_public: 'yes' } as never, pro).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(MutationError);
    expect(error).toMatchObject({ code: 'invalid', message: expect.stringContaining('is_public') });
    expect(await db.outbox.count()).toBe(0);
  });
});

describe('answers from the server', () => {
  it('an invalid pulled row is a sync error that writes nothing, and the next good pull goes on', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.write('saved_links', { id: uuid(), directory_id: dir.id, url: 'https://a.test', title: 'A', tags: 'x' });
    expect(await engine().sync()).toBe('error');
    expect(statuses.at(-1)?.message).toMatch(/invalid saved_links row: tags/);
    expect(await db.link_directories.count()).toBe(0);
    expect(errors).toHaveBeenCalled();
    errors.mockRestore();
  });

  it('an invalid push answer counts as a failed attempt (never wedges the queue) and writes nothing', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const transport = server.transport();
    const sync = new SyncEngine({
      db,
      transport: { ...transport, push: async () => ({ results: [{ id: 1, status: 'maybe' }] }) as never },
      context: () => pro,
      timers: new ManualTimers(),
      onStatus: (status) => statuses.push(status),
      maxAttempts: 2,
    });
    expect(await sync.sync()).toBe('synced');
    await mutate(db, 'link.create', { id: uuid(), directory_id: dir.id, url: 'https://a.test', title: 'A' }, pro);
    expect(await sync.sync()).toBe('error');
    expect(statuses.at(-1)?.message).toMatch(/Malformed answer from sync_push/);
    expect(await sync.sync()).toBe('error');
    const [row] = await db.outbox.toArray();
    expect(row).toMatchObject({ status: 'failed', last_error: expect.stringMatching(/Malformed answer/) });
    errors.mockRestore();
  });
});
