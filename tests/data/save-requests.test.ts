import type { DBCore, DBCoreTransaction, Middleware } from 'dexie';
import { describe, expect, it } from 'vitest';
import { keptCount, keptCounts } from '../../src/data/counts.ts';
import { countKey, movesKey } from '../../src/data/index-counts.ts';
import type { LinkboardDb } from '../../src/data/db.ts';
import { mutate } from '../../src/data/mutate.ts';
import { ctx, freshDb } from './helpers.ts';
import { ME, OTHER, makeDirectory, makeLink, makeMember, uuid } from '../support/builders.ts';

/**
 * What a save asks of IndexedDB (docs/scale.md, "Queue 1,000 writes"): every request that reaches the
 * database (below every middleware, the kept counts' included), and how many waits there are on
 * the way: a request issued while none of its transaction is in flight starts one (it waited for
 * an answer, or is the first).
 */
function watchRequests(db: LinkboardDb) {
  const seen = { requests: 0, waits: 0 };
  const inFlight = new WeakMap<DBCoreTransaction, number>();
  const track = <T>(trans: DBCoreTransaction, issue: () => Promise<T>): Promise<T> => {
    const now = inFlight.get(trans) ?? 0;
    seen.requests += 1;
    if (now === 0) seen.waits += 1;
    inFlight.set(trans, now + 1);
    const done = () => inFlight.set(trans, (inFlight.get(trans) ?? 1) - 1);
    return issue().then(
      (answer) => (done(), answer),
      (error: unknown) => (done(), Promise.reject(error)),
    );
  };
  const middleware: Middleware<DBCore> = {
    stack: 'dbcore',
    name: 'WatchRequests',
    // Below Dexie's own middlewares (level 0 and up): what IndexedDB itself is asked.
    level: -10,
    create: (down) => ({
      ...down,
      table(name) {
        const table = down.table(name);
        return {
          ...table,
          get: (req) => track(req.trans, () => table.get(req)),
          getMany: (req) => track(req.trans, () => table.getMany(req)),
          query: (req) => track(req.trans, () => table.query(req)),
          count: (req) => track(req.trans, () => table.count(req)),
          mutate: (req) => track(req.trans, () => table.mutate(req)),
        };
      },
    }),
  };
  db.use(middleware);
  return {
    /** The requests and waits of `run`. */
    async of(run: () => Promise<unknown>) {
      seen.requests = 0;
      seen.waits = 0;
      await run();
      return { ...seen };
    },
  };
}

const pro = ctx({ tier: 'pro' });

/** What the kept counts must equal: the links counted one by one. */
async function expectKept(db: LinkboardDb) {
  const links = await db.saved_links.toArray();
  const by = (field: 'directory_id' | 'owner_id') => {
    const counts = new Map<string, number>();
    for (const link of links) counts.set(link[field], (counts.get(link[field]) ?? 0) + 1);
    return counts;
  };
  const [directories, owners] = [by('directory_id'), by('owner_id')];
  const kept = await keptCounts(db, 'saved_links', 'directory_id');
  for (const [id, n] of directories) expect(kept.get(id), id).toBe(n);
  for (const [id, n] of kept) expect(n, id).toBe(directories.get(id) ?? 0);
  for (const [id, n] of owners) expect(await keptCount(db, 'saved_links', 'owner_id', id)).toBe(n);
}

describe("a save's requests", () => {
  it('a new link waits twice: its directory read with the row and counts its write changes, then the link, its counts and its outbox entry written together', async () => {
    const db = freshDb();
    const watch = watchRequests(db);
    const directory = makeDirectory({ owner_id: ME });
    await db.link_directories.put(directory);
    const id = uuid();
    const { requests, waits } = await watch.of(() =>
      mutate(db, 'link.create', { id, directory_id: directory.id, url: 'https://a.test', title: 'A' }, pro),
    );
    // The directory, the row the link replaces and the counts it arrives at; the link, its counts
    // and the outbox entry. One after the other they were six waits.
    expect(requests).toBe(6);
    expect(waits).toBe(2);
    expect(await db.saved_links.get(id)).toMatchObject({ directory_id: directory.id, owner_id: ME });
    expect(await db.outbox.count()).toBe(1);
    expect(await keptCount(db, 'saved_links', 'directory_id', directory.id)).toBe(1);
  });

  it('a delete reads the row it removes with the delete, then the counts it left', async () => {
    const db = freshDb();
    const watch = watchRequests(db);
    const directory = makeDirectory({ owner_id: ME });
    const link = makeLink({ directory_id: directory.id, owner_id: ME });
    await db.link_directories.put(directory);
    await db.saved_links.put(link);
    const before = await watch.of(() => mutate(db, 'link.delete', { id: link.id }, pro));
    // validate: the link, its directory; then the row and the delete with the outbox entry; the
    // counts it left (read, then written). One after the other they were seven waits.
    expect(before.waits).toBe(5);
    expect(await db.saved_links.get(link.id)).toBeUndefined();
    await expectKept(db);
  });

  it("a new link in another owner's directory (the owner guessed wrong) reads that owner's count at the write", async () => {
    const db = freshDb();
    const watch = watchRequests(db);
    const directory = makeDirectory({ owner_id: OTHER });
    await db.link_directories.put(directory);
    await db.directory_members.put(
      makeMember({ directory_id: directory.id, user_email: 'me@example.com', role: 'editor' }),
    );
    await db.saved_links.put(makeLink({ directory_id: directory.id, owner_id: OTHER }));
    const id = uuid();
    const { waits } = await watch.of(() =>
      mutate(db, 'link.create', { id, directory_id: directory.id, url: 'https://a.test', title: 'A' }, pro),
    );
    // The directory with the read ahead, the caller's membership; the link, the outbox entry and the
    // owner's count read; the counts written.
    expect(waits).toBe(3);
    expect(await db.saved_links.get(id)).toMatchObject({ owner_id: OTHER });
    expect(await keptCount(db, 'saved_links', 'owner_id', OTHER)).toBe(2);
    expect(await keptCount(db, 'saved_links', 'owner_id', ME)).toBe(0);
    await expectKept(db);
  });

  it('a write that fails after its counts were written with it leaves them as they were', async () => {
    const db = freshDb();
    const [a, b] = [makeDirectory({ owner_id: ME }), makeDirectory({ owner_id: OTHER })];
    const link = makeLink({ directory_id: a.id, owner_id: ME });
    await db.link_directories.bulkPut([a, b]);
    await db.saved_links.put(link);
    const fresh = makeLink({ directory_id: b.id, owner_id: OTHER });
    await db.transaction('rw', db.saved_links, db.counts, async () => {
      // Read ahead, as a mutator does: the rows and every count the writes change are known.
      await db.saved_links.bulkGet([link.id, fresh.id]);
      await db.counts.bulkGet([
        countKey('saved_links', 'directory_id', a.id),
        countKey('saved_links', 'directory_id', b.id),
        countKey('saved_links', 'owner_id', ME),
        countKey('saved_links', 'owner_id', OTHER),
        movesKey('saved_links', 'directory_id', a.id),
        movesKey('saved_links', 'directory_id', b.id),
      ]);
      // An add of a key held fails (and is caught); the other row of the same write is stored.
      await db.saved_links.bulkAdd([{ ...link, directory_id: b.id, owner_id: OTHER }, fresh]).catch(() => undefined);
    });
    expect(await db.saved_links.get(link.id)).toMatchObject({ directory_id: a.id });
    expect(await db.saved_links.get(fresh.id)).toBeDefined();
    await expectKept(db);
    expect(await keptCount(db, 'saved_links', 'directory_id', b.id)).toBe(1);
  });

  it('a row read, changed in place and written back is counted from the row as it was read', async () => {
    const db = freshDb();
    const [a, b] = [makeDirectory({ owner_id: ME }), makeDirectory({ owner_id: ME })];
    const link = makeLink({ directory_id: a.id, owner_id: ME });
    await db.link_directories.bulkPut([a, b]);
    await db.saved_links.put(link);
    await db.transaction('rw', db.saved_links, db.counts, async () => {
      const row = (await db.saved_links.get(link.id))!;
      await db.counts.bulkGet([
        countKey('saved_links', 'directory_id', b.id),
        movesKey('saved_links', 'directory_id', b.id),
      ]);
      row.directory_id = b.id;
      await db.saved_links.put(row);
    });
    await expectKept(db);
    expect(await keptCount(db, 'saved_links', 'directory_id', a.id)).toBe(0);
  });

  it('a write refused whole after its counts were written with it leaves them as they were', async () => {
    const db = freshDb();
    const [a, b] = [makeDirectory({ owner_id: ME }), makeDirectory({ owner_id: OTHER })];
    const link = makeLink({ directory_id: a.id, owner_id: ME });
    await db.link_directories.bulkPut([a, b]);
    await db.saved_links.put(link);
    const keys = [a.id, b.id].flatMap((id) => [
      countKey('saved_links', 'directory_id', id),
      movesKey('saved_links', 'directory_id', id),
    ]);
    await db.transaction('rw', db.saved_links, db.counts, async () => {
      await db.saved_links.get(link.id);
      await db.counts.bulkGet([
        ...keys,
        countKey('saved_links', 'owner_id', ME),
        countKey('saved_links', 'owner_id', OTHER),
      ]);
      // A value IndexedDB cannot store: the write is refused, and the caller goes on.
      const unstorable = { ...link, directory_id: b.id, owner_id: OTHER, notes: (() => 'x') as unknown as string };
      await expect(db.saved_links.put(unstorable)).rejects.toThrow();
    });
    expect(await db.saved_links.get(link.id)).toMatchObject({ directory_id: a.id });
    await expectKept(db);
    expect(await db.counts.get(countKey('saved_links', 'directory_id', b.id))).toBeUndefined();
  });

  it('keep the counts right through a burst of creates, favourites, deletes, pulled moves and a directory deleted', async () => {
    const db = freshDb();
    const [a, b, c] = [
      makeDirectory({ owner_id: ME }),
      makeDirectory({ owner_id: ME }),
      makeDirectory({ owner_id: OTHER }),
    ];
    await db.link_directories.bulkPut([a, b, c]);
    const held = Array.from({ length: 30 }, (_, i) =>
      makeLink({ directory_id: [a, b, c][i % 3]!.id, owner_id: [ME, ME, OTHER][i % 3]! }),
    );
    await db.saved_links.bulkPut(held);
    const created: string[] = [];
    const saves: Promise<unknown>[] = [];
    for (let i = 0; i < 60; i += 1) {
      // Called without waiting, as a loop's saves overlap: each in its own transaction, in order.
      const id = uuid();
      created.push(id);
      const directory = i % 2 ? a : b;
      saves.push(
        mutate(db, 'link.create', { id, directory_id: directory.id, url: `https://l.test/${i}`, title: `L ${i}` }, pro),
      );
      if (i % 5 === 4) saves.push(mutate(db, 'link.set_favorite', { id: created[i - 2]!, value: true }, pro));
      if (i % 7 === 6) saves.push(mutate(db, 'link.delete', { id: created[i - 3]! }, pro));
      if (i % 10 === 9) {
        // A pulled page moves a held link to another directory and owner, and rewrites one in place.
        const moved = held[(i - 9) / 10]!;
        saves.push(
          db.saved_links.bulkPut([
            { ...moved, directory_id: c.id, owner_id: OTHER },
            { ...held[20]!, title: 'T' },
          ]),
        );
      }
    }
    await Promise.all(saves);
    await expectKept(db);
    // Every save queued once, in the order of the calls.
    const names = (await db.outbox.orderBy('seq').toArray()).map((row) => row.name);
    expect(names.filter((name) => name === 'link.create')).toHaveLength(60);
    expect(
      (await db.outbox.orderBy('seq').toArray()).filter((row) => row.name === 'link.create').map((row) => row.args.id),
    ).toEqual(created);
    await mutate(db, 'directory.delete', { id: b.id }, pro);
    await expectKept(db);
    expect(await keptCount(db, 'saved_links', 'directory_id', b.id)).toBe(0);
  });
});
