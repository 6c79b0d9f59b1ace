/** A plan changed on the server (the billing webhook) reaches the device's profile row on its next pull. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeDevice, signUpUser, startSyncStack, type Device, type SyncStack } from '../support/sync-harness.ts';

let stack: SyncStack;
const devices: Device[] = [];
beforeAll(async () => {
  stack = await startSyncStack();
});
afterAll(async () => {
  for (const made of devices) made.close();
  await stack.close();
});

it('brings a new plan to the device on the next pull, with a new engine as after a reload', async () => {
  const user = await signUpUser(stack, { tier: 'free' });
  const first = makeDevice('first', user);
  devices.push(first);
  expect(await first.engine.sync()).toBe('synced');
  expect((await first.db.user_profiles.get(user.id))?.subscription_tier).toBe('free');
  await stack.db.query('select public.set_subscription_tier($1, $2)', [user.id, 'pro']);
  expect(await first.engine.sync()).toBe('synced');
  expect((await first.db.user_profiles.get(user.id))?.subscription_tier).toBe('pro');
});
