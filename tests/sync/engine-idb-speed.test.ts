import { Dexie, RangeSet, type ObservabilitySet } from 'dexie';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { openUserDb } from '../../src/data/db.ts';
import { mutate } from '../../src/data/mutate.ts';
import { syncScope } from '../../src/sync/apply-rows.ts';
import { SyncTransportError } from '../../src/backend/sync-transport.ts';
import { ME, makeEvent, makeLink } from '../support/builders.ts';
import { watchTransactions } from '../support/watch-transactions.ts';
import {
  IDBKeyRange,
  addLink,
  db,
  dir,
  engine,
  factory,
  freshEngine,
  pro,
  server,
  setDb,
  statuses,
} from './engine-helpers.ts';

beforeEach(freshEngine);

/**
 * A Dexie `storagemutated` listener that calls `then` only for a commit writing one of `ids`: the
 * event is global, and a beat of an earlier test's burst (burst-wakes.ts) may fire it meanwhile.
 */
function commitsOf(ids: readonly string[], then: () => void): (parts: ObservabilitySet) => void {
  return (parts) => {
    const links = Object.entries(parts).filter(([key]) => key.endsWith('/saved_links/'));
    if (links.some(([, tree]) => ids.some((id) => RangeSet(tree).hasKey(id)))) then();
  };
}

describe('sync at IndexedDB speed', () => {
  const storedCursor = async () => (await db.meta.get('cursor'))?.value;

  it('a sync with nothing to do opens no read-write transaction and keeps the new cursor in memory', async () => {
    const before = await storedCursor();
    server.advance(); // other users' commits move the server's cursor on
    const sync = engine();
    const seen = watchTransactions(db);
    expect(await sync.sync()).toBe('synced');
    expect(await sync.sync()).toBe('synced');
    expect(seen.writes).toEqual([]);
    expect(seen.all.length).toBeGreaterThan(0);
    expect(await storedCursor()).toBe(before);
    // The second pull went on from the first one's cursor, held in memory.
    expect(server.pulls.slice(-2)).toEqual([before, String(Number(before) + 1)]);

    const link = server.write('saved_links', makeLink({ directory_id: dir.id }));
    expect(await sync.sync()).toBe('synced');
    expect(await db.saved_links.get(link.id as string)).toBeDefined();
    expect(await storedCursor()).toBe(link.txid);
  });

  it('a quiet cursor is not used once another engine stored a newer one', async () => {
    const a = engine();
    server.advance();
    await a.sync();
    const quiet = server.pulls.at(-1);
    server.write('saved_links', makeLink({ directory_id: dir.id }));
    await engine().sync(); // another tab stores a newer cursor
    const stored = await storedCursor();
    await a.sync();
    expect(server.pulls.at(-1)).toBe(stored);
    expect(server.pulls.at(-1)).not.toBe(quiet);
  });

  it('sends the next push batch as soon as an answer arrives, before that answer is written', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 12; i += 1) ids.push(await addLink(`L${i}`));
    const events: string[] = [];
    const transport = server.transport();
    const recorded = {
      pull: transport.pull,
      push: async (mutations: Parameters<typeof transport.push>[0]) => {
        // What the device still queues when this batch leaves.
        events.push(`send ${mutations.length}, queued ${await db.outbox.count()}`);
        const answer = await transport.push(mutations);
        events.push('answer');
        return answer;
      },
    };
    expect(await engine({ transport: recorded, batchSize: 5 }).sync()).toBe('synced');
    // Each batch left while the one before was still queued (its answer not yet written).
    expect(events).toEqual([
      'send 5, queued 12',
      'answer',
      'send 5, queued 12',
      'answer',
      'send 2, queued 7',
      'answer',
    ]);
    expect(server.pushed.flat().map((m) => m.args.id)).toEqual(ids);
    expect(await db.outbox.count()).toBe(0);
    expect(statuses.at(-1)).toMatchObject({ state: 'synced', pending: 0 });
  });

  it('keeps a batch sent ahead queued when its push fails, and sends it once on the next sync', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 8; i += 1) ids.push(await addLink(`L${i}`));
    const transport = server.transport();
    let calls = 0;
    const flaky = {
      pull: transport.pull,
      push: (mutations: Parameters<typeof transport.push>[0]) => {
        calls += 1;
        return calls === 2 ? Promise.reject(new SyncTransportError('network', 'offline')) : transport.push(mutations);
      },
    };
    expect(await engine({ transport: flaky, batchSize: 5 }).sync()).toBe('offline');
    // The first batch is written; the second, sent ahead, failed and stays queued.
    expect(server.pushed.map((batch) => batch.length)).toEqual([5]);
    expect((await db.outbox.toArray()).map((row) => row.id)).toHaveLength(3);
    expect(await engine({ batchSize: 5 }).sync()).toBe('synced');
    expect(server.pushed.flat().map((m) => m.args.id)).toEqual(ids);
    expect(await db.outbox.count()).toBe(0);
  });

  it('asks for the next page as soon as a page arrives, while that page is written', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i += 1)
      ids.push(server.write('saved_links', makeLink({ directory_id: dir.id })).id as string);
    const events: string[] = [];
    const transport = server.transport();
    const recorded = {
      push: transport.push,
      pull: async (cursor: string | null, limit: number) => {
        events.push(`ask ${cursor}`);
        const answer = await transport.pull(cursor, limit);
        events.push(`got ${cursor}`);
        return answer;
      },
    };
    const committed = commitsOf(ids, () => events.push('committed'));
    Dexie.on('storagemutated', committed);
    try {
      await engine({ transport: recorded, pullLimit: 2 }).sync();
    } finally {
      Dexie.on('storagemutated').unsubscribe(committed);
    }
    const firstAsk = events.indexOf('ask 1');
    const secondAsk = events.findIndex((event, i) => i > firstAsk + 1 && event.startsWith('ask'));
    // The second page was asked for before the first one's rows were committed.
    expect(events.slice(firstAsk, secondAsk + 1)).toEqual(['ask 1', 'got 1', events[secondAsk]]);
    expect(events.indexOf('committed')).toBeGreaterThan(secondAsk);
    expect(await db.saved_links.count()).toBe(6);
  });

  it('asks for a short first page (1,000 rows), so the writing starts while full pages come', async () => {
    for (let i = 0; i < 1500; i += 1) server.write('saved_links', makeLink({ directory_id: dir.id }));
    await db.meta.delete('cursor');
    server.pullLimits.length = 0;
    await engine({ pullLimit: 5000 }).sync();
    expect(await db.saved_links.count()).toBe(1500);
    expect(server.pullLimits).toEqual([1000, 5000]);
    // A page size under it is kept for every page.
    await db.meta.delete('cursor');
    server.pullLimits.length = 0;
    await engine({ pullLimit: 600 }).sync();
    expect(server.pullLimits).toEqual([600, 600, 600]);
  });

  it('asks for pages of 10,000 in a pull from scratch and of 5,000 after a cursor, each after a first of 1,000', async () => {
    for (let i = 0; i < 1500; i += 1) server.write('saved_links', makeLink({ directory_id: dir.id }));
    await db.meta.delete('cursor');
    server.pullLimits.length = 0;
    await engine().sync();
    expect(await db.saved_links.count()).toBe(1500);
    expect(server.pullLimits).toEqual([1000, 10_000]);
    for (let i = 0; i < 1500; i += 1) server.write('saved_links', makeLink({ directory_id: dir.id }));
    server.pullLimits.length = 0;
    await engine().sync();
    expect(await db.saved_links.count()).toBe(3000);
    expect(server.pullLimits).toEqual([1000, 5000]);
  });

  it('asks for pages up to two ahead of the one being written, and never more', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 10; i += 1)
      ids.push(server.write('saved_links', makeLink({ directory_id: dir.id })).id as string);
    const events: string[] = [];
    const transport = server.transport();
    // Pages asked for and not yet written (the one being written included), at each ask.
    let unwritten = 0;
    let most = 0;
    const recorded = {
      push: transport.push,
      pull: (cursor: string | null, limit: number) => {
        events.push('ask');
        unwritten += 1;
        most = Math.max(most, unwritten);
        return transport.pull(cursor, limit);
      },
    };
    const committed = commitsOf(ids, () => {
      unwritten -= 1;
      events.push('committed');
    });
    Dexie.on('storagemutated', committed);
    try {
      await engine({ transport: recorded, pullLimit: 2 }).sync();
    } finally {
      Dexie.on('storagemutated').unsubscribe(committed);
    }
    // Three pages asked for before the first page's rows were committed; then one per page written.
    expect(events).toEqual([
      'ask',
      'ask',
      'ask',
      'committed',
      'ask',
      'committed',
      'ask',
      'committed',
      'committed',
      'committed',
    ]);
    // The page being written and two ahead of it, never more.
    expect(most).toBe(3);
    expect(await db.saved_links.count()).toBe(10);
  });

  it('writes a pulled page over only the tables it touches (with the outbox, meta and counts)', async () => {
    server.write('saved_links', makeLink({ directory_id: dir.id }));
    const seen = watchTransactions(db);
    await engine().sync();
    const writes = seen.writes;
    expect(writes).toHaveLength(1);
    expect(writes[0]?.stores.sort()).toEqual(['counts', 'meta', 'outbox', 'saved_links']);
  });

  it('a page touching a queued change re-applies it over every table it needs', async () => {
    const link = server.write('saved_links', makeLink({ directory_id: dir.id, title: 'Old' }));
    await engine().sync();
    await mutate(db, 'link.update', { id: link.id as string, title: 'Mine' }, pro);
    server.write('saved_links', { id: link.id as string, notes: 'theirs' });
    server.failNext('push', 'network');
    await engine().sync(); // offline push: nothing leaves
    const seen = watchTransactions(db);
    const pull = await import('../../src/sync/apply-pull.ts');
    await pull.applyPullPage(db, await server.transport().pull('1', 10), { clear: false, ctx: pro, incremental: true });
    expect(await db.saved_links.get(link.id as string)).toMatchObject({ title: 'Mine', notes: 'theirs' });
    // Over the page's tables first; the queued update also reads directories and members, so
    // that transaction is given up (nothing written) and the page is written over every table.
    const writes = seen.writes.map((tx) => tx.stores.length);
    expect(writes).toEqual([4, syncScope(db).length]);
  });

  it('a pull from scratch writes its later pages without reading what the device holds first', async () => {
    for (let i = 0; i < 5; i += 1) server.write('saved_links', makeLink({ directory_id: dir.id }));
    await db.meta.delete('cursor');
    const read = vi.spyOn(db.table('saved_links'), 'bulkGet');
    await engine({ pullLimit: 2 }).sync();
    expect(await db.saved_links.count()).toBe(5);
    expect(server.pulls.length).toBeGreaterThan(2);
    expect(read).not.toHaveBeenCalled();
    // Following a cursor, a page is compared with what is held (the next test: nothing rewritten).
    server.write('saved_links', makeLink({ directory_id: dir.id }));
    await engine({ pullLimit: 2 }).sync();
    expect(read).toHaveBeenCalled();
  });

  /** The live-query parts (table:index ranges) that `run`'s writes wake. */
  async function partsWokenBy(run: () => Promise<void>): Promise<string[]> {
    const woken: string[] = [];
    const note = (parts: Record<string, unknown>) => woken.push(...Object.keys(parts));
    Dexie.on('storagemutated', note);
    try {
      await run();
    } finally {
      Dexie.on('storagemutated').unsubscribe(note);
    }
    return woken;
  }

  it('does not write again rows the device holds unchanged', async () => {
    for (let i = 0; i < 3; i += 1) server.write('saved_links', makeLink({ directory_id: dir.id }));
    await engine().sync();
    await db.meta.put({ key: 'cursor', value: '0' }); // the same rows come again
    const woken = await partsWokenBy(async () => expect(await engine().sync()).toBe('synced'));
    expect(woken.filter((part) => part.includes('saved_links') || part.includes('link_directories'))).toEqual([]);
    expect(await db.saved_links.count()).toBe(3);
  });

  it('does not write again events the device holds unchanged, though it keeps local keys beside their fields', async () => {
    server.write('calendar_events', makeEvent({ starts_at: '2026-03-16T09:00:00+00:00' }));
    server.write('calendar_events', makeEvent({ is_task: true, priority: 'low', ends_at: null }));
    await engine().sync();
    expect(await db.calendar_events.where('[_kind+_at]').between(['e', ''], ['e', '\uffff']).count()).toBe(1);
    await db.meta.put({ key: 'cursor', value: '0' });
    const woken = await partsWokenBy(async () => expect(await engine().sync()).toBe('synced'));
    expect(woken.filter((part) => part.includes('calendar_events'))).toEqual([]);
  });
});

describe('a device out of storage space', () => {
  it("says so when the answer's rows cannot be stored, keeps the queue and syncs once space is freed", async () => {
    let full = false;
    const quotaExceeded = () => new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    db.close();
    setDb(openUserDb(ME, { indexedDB: factory, IDBKeyRange }));
    db.use({
      stack: 'dbcore',
      name: 'full-device',
      create: (down) => ({
        ...down,
        table: (name) => {
          const table = down.table(name);
          return { ...table, mutate: (request) => (full ? Promise.reject(quotaExceeded()) : table.mutate(request)) };
        },
      }),
    });
    const id = await addLink('Waiting');
    const elsewhere = makeLink({ directory_id: dir.id, title: 'From elsewhere', txid: '9' });
    server.write('saved_links', elsewhere);
    full = true;
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await engine().sync()).toBe('error');
    expect(statuses.at(-1)).toMatchObject({
      state: 'error',
      message: 'Your device is out of storage space. Free some space, then try again.',
    });
    full = false;
    // The answer could not be stored: the change still waits (the server's answer to its id is kept).
    expect((await db.outbox.toArray()).map((row) => row.args.id)).toEqual([id]);
    expect(await engine().sync()).toBe('synced');
    expect(await db.outbox.count()).toBe(0);
    expect(server.table('saved_links').get(id)).toMatchObject({ title: 'Waiting' });
    expect(await db.saved_links.get(elsewhere.id)).toMatchObject({ title: 'From elsewhere' });
  });
});
