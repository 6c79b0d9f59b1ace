/**
 * What changes between a sync's push and its pull, against the real local stack (the rows are the
 * server's, as its answers and pages carry them): the device ends with the server's view.
 */
import { describe, expect, it } from 'vitest';
import { mutate } from '../../src/data/mutate.ts';
import { dbKinds } from '../support/db.ts';
import {
  localView,
  newDirectory,
  newLink,
  serverView,
  signUpUser,
  syncSuite,
  type Device,
} from '../support/sync-harness.ts';

describe.each(dbKinds)('between a push and its pull (%s)', (kind) => {
  const suite = syncSuite(kind);
  const { device } = suite;

  async function newLinks(d: Device, directoryId: string, count: number): Promise<string[]> {
    const ids: string[] = [];
    // An emoji, a combining accent and a right-to-left mark, as pasted titles carry them: the
    // device compares what the pull brings with what the push's answer stored, as sent.
    for (let i = 0; i < count; i += 1)
      ids.push(await newLink(d, directoryId, `Link ${i} \u{1f41b} Zu\u0308rich \u200f`, `https://x.test/${i}`));
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
