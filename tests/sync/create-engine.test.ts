/** The one engine factory used by the app and the worker. */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { expect, it } from 'vitest';
import { openUserDb } from '../../src/data/db.ts';
import {
  FALLBACK_TIME_ZONE,
  createSyncEngine,
  mutationContextOf,
  refreshThrough,
} from '../../src/sync/create-engine.ts';
import { ME } from '../support/builders.ts';
import { FakeServer, ManualTimers } from './fake-server.ts';

it("builds who mutates from the profile: its time zone, else UTC (the server's fallback)", () => {
  expect(FALLBACK_TIME_ZONE).toBe('UTC');
  expect(
    mutationContextOf({ id: ME, email: 'me@example.com', subscription_tier: 'pro', time_zone: 'Europe/Paris' }),
  ).toMatchObject({ userId: ME, email: 'me@example.com', tier: 'pro', timeZone: 'Europe/Paris' });
  expect(mutationContextOf({ id: ME, time_zone: '' })).toMatchObject({ email: '', tier: 'free', timeZone: 'UTC' });
  expect(mutationContextOf({ id: ME, time_zone: null, subscription_tier: 'gold' })).toMatchObject({
    tier: 'free',
    timeZone: 'UTC',
  });
});

it('reads the user at every sync and syncs through the given transport', async () => {
  const server = new FakeServer(ME);
  let reads = 0;
  const engine = createSyncEngine({
    db: openUserDb(ME, { indexedDB: new IDBFactory(), IDBKeyRange }),
    userId: ME,
    transport: server.transport(),
    timers: new ManualTimers(),
    onStatus: () => undefined,
    user: () => {
      reads += 1;
      return { id: ME };
    },
  });
  expect(await engine.sync()).toBe('synced');
  expect(reads).toBeGreaterThan(0);
  expect(server.pulls).toEqual([null]);
});

it('refreshes the session through the client and throws its error', async () => {
  await expect(refreshThrough(() => ({ auth: { refreshSession: async () => ({ error: null }) } }))()).resolves.toBe(
    undefined,
  );
  const failure = new Error('refresh token used');
  await expect(
    refreshThrough(async () => ({ auth: { refreshSession: async () => ({ error: failure }) } }))(),
  ).rejects.toBe(failure);
});
