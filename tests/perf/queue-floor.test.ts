import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { openUserDb } from '../../src/data/db.ts';
import { mutate } from '../../src/data/mutate.ts';
import { keptCountKeys, queueFloor } from '../../src/perf/queue-floor.ts';
import { ctx } from '../data/helpers.ts';
import { ME, uuid } from '../support/builders.ts';

describe('the floor under the queued saves (plain IndexedDB asked what a save asks)', () => {
  it("asks for the kept counts a save writes, and leaves the user's database as it found it", async () => {
    const factory = new IDBFactory();
    const db = openUserDb(ME, { indexedDB: factory, IDBKeyRange });
    const pro = ctx({ tier: 'pro' });
    const directoryId = uuid();
    await mutate(db, 'directory.create', { id: directoryId, name: 'Reading', color: 'blue', is_public: false }, pro);
    for (const [i, title] of ['Ünïcode ✓', 'Second', 'Third'].entries()) {
      const args = { id: uuid(), directory_id: directoryId, url: `https://a.test/${i}`, title };
      await mutate(db, 'link.create', args, pro);
    }
    const keys = keptCountKeys(directoryId, ME);
    // The keys the floor reads and writes are the ones the app's saves keep.
    expect((await db.counts.bulkGet(keys)).map((row) => row?.n)).toEqual([3, 3, 3]);
    const before = await snapshot(db);
    db.close();

    const ms = await queueFloor(db.name, directoryId, 25, 'floor', { factory, keyRange: IDBKeyRange });

    expect(ms).toBeGreaterThan(0);
    await db.open();
    expect(await snapshot(db)).toEqual(before);
  });

  it('takes away what it wrote when a transaction fails on the way', async () => {
    const factory = new IDBFactory();
    const db = openUserDb(ME, { indexedDB: factory, IDBKeyRange });
    const directoryId = uuid();
    const pro = ctx({ tier: 'pro' });
    await mutate(db, 'directory.create', { id: directoryId, name: 'Reading', color: 'blue', is_public: false }, pro);
    await mutate(db, 'link.create', { id: uuid(), directory_id: directoryId, url: 'https://a.test', title: 'A' }, pro);
    const before = await snapshot(db);
    db.close();
    // The third save's transaction cannot start (the device out of space); the undo's can.
    const failing = {
      open(name: string) {
        const request = factory.open(name);
        request.addEventListener('success', () => {
          const opened = request.result;
          const transaction = opened.transaction.bind(opened);
          let writes = 0;
          opened.transaction = ((stores: string[], mode?: IDBTransactionMode) => {
            if (mode === 'readwrite' && ++writes === 3) throw new DOMException('No space left', 'QuotaExceededError');
            return transaction(stores, mode);
          }) as IDBDatabase['transaction'];
        });
        return request;
      },
    } as IDBFactory;

    await expect(
      queueFloor(db.name, directoryId, 10, 'floor', { factory: failing, keyRange: IDBKeyRange }),
    ).rejects.toThrow('No space left');
    await db.open();
    expect(await snapshot(db)).toEqual(before);
  });

  it('refuses a directory with no link to copy, writing nothing', async () => {
    const factory = new IDBFactory();
    const db = openUserDb(ME, { indexedDB: factory, IDBKeyRange });
    await db.open();
    const before = await snapshot(db);
    db.close();
    await expect(queueFloor(db.name, uuid(), 5, 'floor', { factory, keyRange: IDBKeyRange })).rejects.toThrow(
      'the directory has no link to copy',
    );
    await db.open();
    expect(await snapshot(db)).toEqual(before);
  });
});

async function snapshot(db: ReturnType<typeof openUserDb>) {
  return {
    links: await db.saved_links.toArray(),
    counts: await db.counts.toArray(),
    outbox: await db.outbox.toArray(),
  };
}
