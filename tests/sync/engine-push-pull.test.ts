import { beforeEach, describe, expect, it, vi } from 'vitest';
import { openUserDb } from '../../src/data/db.ts';
import { mutate, mutateMany } from '../../src/data/mutate.ts';
import { SESSION_EXPIRED } from '../../src/sync/engine.ts';
import { ME, makeLink, uuid } from '../support/builders.ts';
import {
  IDBKeyRange,
  addLink,
  db,
  dir,
  engine,
  factory,
  freshEngine,
  pro,
  rejected,
  server,
  setDb,
  statuses,
  timers,
} from './engine-helpers.ts';

beforeEach(freshEngine);

describe('push and pull', () => {
  it('pulls, pushes the outbox and stores canonical rows', async () => {
    expect(await db.link_directories.get(dir.id)).toMatchObject({ name: dir.name });
    const id = await addLink();
    expect(await engine().sync()).toBe('synced');
    expect(await db.outbox.count()).toBe(0);
    expect(server.table('saved_links').get(id)).toMatchObject({ title: 'A', owner_id: ME });
    expect((await db.saved_links.get(id))?.txid).toBeDefined();
    expect(statuses.at(-1)).toMatchObject({ state: 'synced', pending: 0, failed: 0 });
  });

  it('pushes in batches of at most 500, in queue order', async () => {
    // Queued in one transaction: 1,001 writes one by one take most of the test's time on fake-indexeddb.
    const ids = Array.from({ length: 1001 }, () => uuid());
    const steps = ids.map((id, i) => ({
      name: 'link.create' as const,
      args: { id, directory_id: dir.id, url: 'https://a.test', title: `L${i}` },
    }));
    expect((await mutateMany(db, steps, pro)).queued).toHaveLength(1001);
    await engine().sync();
    expect(server.pushed.map((batch) => batch.length)).toEqual([500, 500, 1]);
    expect(server.pushed.flat().map((m) => m.args.id)).toEqual(ids);
  });

  it('pulls pages until more is false', async () => {
    for (let i = 0; i < 5; i += 1) server.write('saved_links', makeLink({ directory_id: dir.id }));
    await engine({ pullLimit: 2 }).sync();
    expect(await db.saved_links.count()).toBe(5);
    expect(server.pulls.length).toBe(1 + 3);
  });

  it('keeps the queue across a reopen of the database', async () => {
    await addLink();
    db.close();
    setDb(openUserDb(ME, { indexedDB: factory, IDBKeyRange }));
    expect(await db.outbox.count()).toBe(1);
    await engine().sync();
    expect(server.table('saved_links').size).toBe(1);
  });
});

describe('transport errors', () => {
  it('keeps the queue on network errors and backs off 1, 2, 5, 10, 10 s', async () => {
    await addLink();
    server.failNext('push', 'network', 3);
    server.failNext('push', 'unavailable', 2, 503);
    const sync = engine();
    for (let i = 0; i < 5; i += 1) expect(await sync.sync()).toBe('offline');
    expect(timers.delays).toEqual([1000, 2000, 5000, 10000, 10000]);
    expect(await db.outbox.count()).toBe(1);
    expect(statuses.at(-1)).toMatchObject({ state: 'offline', pending: 1 });
    timers.fireAll(); // the scheduled retry runs the sync
    expect(await sync.sync()).toBe('synced');
    expect(await db.outbox.count()).toBe(0);
    await sync.sync();
    expect(timers.scheduled).toBe(0);
  });

  it('on 401 refreshes the session once, then retries', async () => {
    await addLink();
    server.failNext('push', 'auth');
    const refreshSession = vi.fn(async () => undefined);
    expect(await engine({ refreshSession }).sync()).toBe('synced');
    expect(refreshSession).toHaveBeenCalledTimes(1);
    expect(await db.outbox.count()).toBe(0);
  });

  it('a pull that keeps failing with 401 is an error, never "nothing changed"', async () => {
    server.failNext('pull', 'auth', 2);
    const refreshSession = vi.fn(async () => undefined);
    expect(await engine({ refreshSession }).sync()).toBe('error');
    expect(refreshSession).toHaveBeenCalledTimes(1);
    expect(statuses.at(-1)).toMatchObject({ state: 'error', message: SESSION_EXPIRED });
    expect(await db.link_directories.count()).toBe(1);
  });
});

describe('rejections', () => {
  it('restores the server rows and reports the product message', async () => {
    const link = server.write('saved_links', { ...makeLink({ directory_id: dir.id, title: 'Server' }) });
    await engine().sync();
    const m = await mutate(db, 'link.update', { id: link.id, title: 'Mine' }, pro);
    expect((await db.saved_links.get(link.id))?.title).toBe('Mine');
    server.rejectNext(m.id, 'forbidden', 'Failed to save link. Please try again.');
    await engine().sync();
    expect((await db.saved_links.get(link.id))?.title).toBe('Server');
    expect(rejected).toEqual(['Failed to save link. Please try again.']);
    expect(await db.outbox.count()).toBe(0);
  });

  it('drops a refused creation (the 31st link) and says why', async () => {
    for (let i = 0; i < 30; i += 1) server.write('saved_links', makeLink({ directory_id: dir.id }));
    const id = await addLink('31st'); // Pro locally, but the server counts 30 already
    await engine().sync();
    expect(await db.saved_links.get(id)).toBeUndefined();
    expect(rejected).toEqual(['Upgrade to Pro to save more links.']);
  });
});

describe('failing mutations', () => {
  it('becomes failed after 3 attempts, stops blocking the queue; retry and discard work', async () => {
    const link = server.write('saved_links', { ...makeLink({ directory_id: dir.id, title: 'Server' }) });
    await engine().sync();
    const bad = await mutate(db, 'link.update', { id: link.id, title: 'Bad' }, pro);
    server.failNext('push', 'server', 3, 500);
    const sync = engine();
    expect(await sync.sync()).toBe('error');
    expect(await sync.sync()).toBe('error');
    expect((await db.outbox.get(bad.seq!))?.attempts).toBe(2);
    expect(await sync.sync()).toBe('error');
    expect(await db.outbox.get(bad.seq!)).toMatchObject({
      status: 'failed',
      attempts: 3,
      last_error: 'server failure',
    });
    expect(statuses.at(-1)).toMatchObject({ state: 'error', failed: 1, message: '1 change could not be saved.' });
    // Later mutations still drain; the failed change stays visible.
    const next = await addLink('Next');
    expect(await sync.sync()).toBe('error');
    expect(server.table('saved_links').get(next)).toBeDefined();
    expect((await db.saved_links.get(link.id))?.title).toBe('Bad');

    await sync.retry(bad.id);
    expect(await db.outbox.count()).toBe(0);
    expect(server.table('saved_links').get(link.id)?.title).toBe('Bad');

    const worse = await mutate(db, 'link.update', { id: link.id, title: 'Worse' }, pro);
    server.failNext('push', 'server', 3, 500);
    await sync.sync();
    await sync.sync();
    await sync.sync();
    expect((await db.outbox.toArray())[0]).toMatchObject({ id: worse.id, status: 'failed' });
    expect(await sync.discard(worse.id)).toBe('synced');
    expect(await db.outbox.count()).toBe(0);
    expect((await db.saved_links.get(link.id))?.title).toBe('Bad');
    expect(server.pulls.at(-1)).toBeNull();
  });

  it('a server error on a batch counts attempts only against the culprit', async () => {
    await addLink('1');
    await addLink('2');
    await addLink('3');
    server.failNext('push', 'server', 1, 500);
    expect(await engine().sync()).toBe('synced');
    expect(server.pushed.map((batch) => batch.length)).toEqual([1, 1, 1]);
    expect(await db.outbox.count()).toBe(0);
  });
});
