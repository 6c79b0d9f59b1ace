import { expect, it, vi } from 'vitest';
import { installSyncTriggers } from '../../src/sync/triggers.ts';
import { createMutex } from '../../src/sync/lock.ts';
import { mutate } from '../../src/data/mutate.ts';
import { ctx, freshDb } from '../data/helpers.ts';
import { uuid } from '../support/builders.ts';
import { ManualTimers } from './fake-server.ts';

class Target extends EventTarget {
  visibilityState: DocumentVisibilityState = 'visible';
}

it('syncs on start, after a mutation, online, offline, visible, and every 30 s while visible', async () => {
  const db = freshDb();
  const engine = { sync: vi.fn(async () => 'synced') };
  const win = new Target();
  const doc = new Target();
  const timers = new ManualTimers();
  const off = installSyncTriggers(engine, db, { window: win, document: doc, timers });
  expect(engine.sync).toHaveBeenCalledTimes(1);
  // A mutation's sync starts on a later task (not the click's), and two changes make one sync.
  await mutate(db, 'directory.create', { id: uuid(), name: 'x' }, ctx());
  await mutate(db, 'directory.create', { id: uuid(), name: 'y' }, ctx({ tier: 'pro' }));
  expect(engine.sync).toHaveBeenCalledTimes(1);
  expect(timers.delays).toEqual([30_000, 0]);
  timers.fireAll();
  expect(engine.sync).toHaveBeenCalledTimes(3);
  win.dispatchEvent(new Event('online'));
  expect(engine.sync).toHaveBeenCalledTimes(4);
  // Going offline syncs too: the attempt fails at once and the badge says Offline.
  win.dispatchEvent(new Event('offline'));
  expect(engine.sync).toHaveBeenCalledTimes(5);
  expect(timers.delays).toEqual([30_000, 0, 30_000]);
  timers.fireAll();
  expect(engine.sync).toHaveBeenCalledTimes(6);
  doc.visibilityState = 'hidden';
  doc.dispatchEvent(new Event('visibilitychange'));
  expect(timers.scheduled).toBe(0);
  doc.visibilityState = 'visible';
  doc.dispatchEvent(new Event('visibilitychange'));
  expect(engine.sync).toHaveBeenCalledTimes(7);
  off();
  win.dispatchEvent(new Event('online'));
  win.dispatchEvent(new Event('offline'));
  await mutate(db, 'directory.create', { id: uuid(), name: 'z' }, ctx({ tier: 'pro' }));
  expect(engine.sync).toHaveBeenCalledTimes(7);
  expect(timers.scheduled).toBe(0);
});

it('a mutation made while the device is offline starts no sync; going online syncs', async () => {
  const db = freshDb();
  const engine = { sync: vi.fn(async () => 'offline') };
  const win = new Target();
  const timers = new ManualTimers();
  let online = false;
  const off = installSyncTriggers(engine, db, { window: win, document: new Target(), timers, isOnline: () => online });
  expect(engine.sync).toHaveBeenCalledTimes(1);
  await mutate(db, 'directory.create', { id: uuid(), name: 'x' }, ctx());
  expect(timers.delays).toEqual([30_000]);
  online = true;
  win.dispatchEvent(new Event('online'));
  expect(engine.sync).toHaveBeenCalledTimes(2);
  await mutate(db, 'directory.create', { id: uuid(), name: 'y' }, ctx({ tier: 'pro' }));
  // Right after the first, it is of its burst: told within BURST_MS (mutate.ts).
  await vi.waitFor(() => expect(timers.delays).toEqual([30_000, 0]));
  off();
});

it('the in-memory mutex runs tasks one at a time', async () => {
  const mutex = createMutex();
  let running = 0;
  let max = 0;
  const task = async () => {
    running += 1;
    max = Math.max(max, running);
    await new Promise((resolve) => setTimeout(resolve, 2));
    running -= 1;
  };
  await Promise.all([
    mutex.run(task),
    mutex.run(task),
    mutex
      .run(async () => {
        throw new Error('x');
      })
      .catch(() => undefined),
    mutex.run(task),
  ]);
  expect(max).toBe(1);
});
