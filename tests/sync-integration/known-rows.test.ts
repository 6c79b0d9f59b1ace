/**
 * A sync's pull does not read back what its own push stored (KnownRows, src/sync/apply-rows.ts),
 * against the real local stack: the rows are the server's, as its answers and pages carry them.
 * What the device ends with is the server's view, whatever changed between the push and the pull.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mutate } from '../../src/data/mutate.ts';
import { uuid } from '../support/builders.ts';
import { dbKinds } from '../support/db.ts';
import { localView, serverView, signUpUser, syncSuite, type Device } from '../support/sync-harness.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each(dbKinds)('a sync stores its own rows once (%s)', (kind) => {
  const suite = syncSuite(kind);
  const { device } = suite;

  async function newDirectory(d: Device): Promise<string> {
    const id = uuid();
    await mutate(d.db, 'directory.create', { id, name: 'Dir' }, d.context());
    return id;
  }

  async function newLinks(d: Device, directoryId: string, count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const id = uuid();
      ids.push(id);
      // An emoji, a combining accent and a right-to-left mark, as pasted titles carry them: the
      // device compares what the pull brings with what the push's answer stored, as sent.
      const title = `Link ${i} \u{1f41b} Zu\u0308rich \u200f`;
      await mutate(
        d.db,
        'link.create',
        { id, directory_id: directoryId, url: `https://x.test/${i}`, title },
        d.context(),
      );
    }
    return ids;
  }

  /** A user's two devices, both synced with a directory made on the first. */
  async function twoDevices() {
    const user = await signUpUser(suite.stack, { tier: 'pro' });
    const one = device('one', user);
    const two = device('two', user);
    expect(await one.engine.sync()).toBe('synced');
    const dir = await newDirectory(one);
    expect(await one.engine.sync()).toBe('synced');
    expect(await two.engine.sync()).toBe('synced');
    return { user, one, two, dir };
  }

  /** The ids each bulkGet of the device's links read, in order (the push answers' and the pulls'). */
  function linkReads(d: Device): string[][] {
    const reads: string[][] = [];
    // Dexie's tables share their prototype; a sync reaches the table through db.table(name).
    const proto = Object.getPrototypeOf(d.db.saved_links) as { bulkGet(keys: unknown[]): Promise<unknown[]> };
    const original = proto.bulkGet;
    vi.spyOn(proto, 'bulkGet').mockImplementation(function (this: { name: string; db: unknown }, keys: unknown[]) {
      if (this.name === 'saved_links' && this.db === d.db) reads.push(keys as string[]);
      return original.call(this, keys);
    });
    return reads;
  }

  it("reads each pushed link once (its push answer's), not again when the pull brings it back", async () => {
    const user = await signUpUser(suite.stack, { tier: 'pro' });
    const one = device('one', user);
    expect(await one.engine.sync()).toBe('synced');
    const dir = await newDirectory(one);
    expect(await one.engine.sync()).toBe('synced');
    const ids = await newLinks(one, dir, 12);
    const reads = linkReads(one);
    expect(await one.engine.sync()).toBe('synced');
    const times = new Map<string, number>();
    for (const id of reads.flat()) times.set(id, (times.get(id) ?? 0) + 1);
    // The pull brought them back (the server's rows differ from the optimistic ones: txid, its
    // clock's created_at), and nothing read them a second time.
    expect(ids.map((id) => times.get(id))).toEqual(ids.map(() => 1));
    expect(await one.db.outbox.count()).toBe(0);
    expect(await localView(one.db)).toEqual(await serverView(user));
  });

  it('writes what another device changed between the push and the pull, and keeps an edit queued then', async () => {
    const { user, one, two, dir } = await twoDevices();
    const [theirs, mine, kept] = await newLinks(one, dir, 3);
    one.transport.beforePull = async () => {
      // One's push has been answered and stored; before its pull, two renames a link it sent...
      expect(await two.engine.sync()).toBe('synced');
      await mutate(two.db, 'link.update', { id: theirs!, title: 'Renamed on two' }, two.context());
      expect(await two.engine.sync()).toBe('synced');
      // ...and one edits another, queued while its sync is on its way.
      await mutate(one.db, 'link.update', { id: mine!, title: 'Edited on one' }, one.context());
    };
    await one.engine.sync();
    expect(await one.db.saved_links.get(theirs!)).toMatchObject({ title: 'Renamed on two' });
    expect(await one.db.saved_links.get(mine!)).toMatchObject({ title: 'Edited on one' });
    expect(await one.db.saved_links.get(kept!)).toMatchObject({ title: 'Link 2 \u{1f41b} Zu\u0308rich \u200f' });
    expect(await one.engine.sync()).toBe('synced');
    expect(await one.db.outbox.count()).toBe(0);
    const server = await serverView(user);
    expect(server.saved_links.map((row) => row.title).sort()).toEqual(
      ['Edited on one', 'Link 2 \u{1f41b} Zu\u0308rich \u200f', 'Renamed on two'].sort(),
    );
    expect(await localView(one.db)).toEqual(server);
    expect(await two.engine.sync()).toBe('synced');
    expect(await localView(two.db)).toEqual(server);
  });

  it('takes a directory deleted on another device between the push and the pull, with the links just pushed', async () => {
    const { user, one, two, dir } = await twoDevices();
    await newLinks(one, dir, 3);
    one.transport.beforePull = async () => {
      expect(await two.engine.sync()).toBe('synced');
      await mutate(two.db, 'directory.delete', { id: dir }, two.context());
      expect(await two.engine.sync()).toBe('synced');
    };
    expect(await one.engine.sync()).toBe('synced');
    expect(await one.db.saved_links.count()).toBe(0);
    expect(await one.db.link_directories.get(dir)).toBeUndefined();
    expect(await localView(one.db)).toEqual(await serverView(user));
  });
});
