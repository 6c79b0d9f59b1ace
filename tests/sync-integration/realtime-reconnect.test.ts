/**
 * A dropped Realtime socket (docs/sync-protocol.md, "Poke"): the app's poke client
 * (src/sync/realtime-poke.ts) on the page's own RealtimeClient (src/backend/realtime-client.ts)
 * joins its channel again after the back-off and pulls once, so a change committed while the
 * socket was down (its poke lost) still arrives; the next poke pulls again. Nothing lost, nothing
 * pulled twice.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { createRealtimeClient } from '../../src/backend/realtime-client.ts';
import { mutate } from '../../src/data/mutate.ts';
import { installRealtimePoke } from '../../src/sync/realtime-poke.ts';
import { dbKinds } from '../support/db.ts';
import { startRealtimeBeside, type RealtimeBeside } from '../support/realtime-beside.ts';
import { until } from '../support/realtime-listener.ts';
import { makeDevice, signUpUser, startSyncStack, type Device, type SyncStack } from '../support/sync-harness.ts';
import { TEST_ANON_KEY } from '../support/test-keys.ts';

const wait = { timeout: 15_000, interval: 20 };

describe.each(dbKinds)('a dropped Realtime socket (%s)', (kind) => {
  let stack: SyncStack;
  let socket: RealtimeBeside;
  const devices: Device[] = [];
  beforeAll(async () => {
    // Node 20 has no WebSocket; the browser's is what the page's client uses.
    (globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;
    stack = await startSyncStack({ kind });
    socket = await startRealtimeBeside(stack.db);
  });
  afterAll(async () => {
    await Promise.all(devices.map((d) => d.engine.sync().catch(() => undefined)));
    for (const device of devices.splice(0)) device.close();
    await socket.close();
    await stack.close();
  });

  it('joins again after the back-off, pulls once, and loses no change made while it was down', async () => {
    const user = await signUpUser(stack);
    const laptop = makeDevice('laptop', user);
    const phone = makeDevice('phone', user);
    devices.push(laptop, phone);
    const client = createRealtimeClient(TEST_ANON_KEY, socket.base);
    let syncs = 0;
    const off = installRealtimePoke(
      { sync: () => ((syncs += 1), laptop.engine.sync()) },
      {
        realtime: client,
        userId: user.id,
        token: async () => (await user.client.auth.getSession()).data.session?.access_token ?? null,
      },
    );
    const joined = () => client.getChannels().some((c) => c.state === 'joined');
    await until(joined, 'the laptop’s channel joined');
    await vi.waitFor(() => expect(syncs).toBe(1), wait);

    // The socket drops; the phone changes the profile meanwhile: that poke reaches nobody.
    socket.realtime.terminateAll();
    await until(() => !joined(), 'the channel lost');
    await mutate(phone.db, 'profile.update', { bio: 'While away' }, phone.context());
    await phone.engine.sync();
    // Back after the back-off: one pull, which brings the change.
    await until(joined, 'the channel joined again', 15_000);
    await vi.waitFor(async () => expect((await laptop.db.user_profiles.get(user.id))?.bio).toBe('While away'), wait);
    expect(syncs).toBe(2);

    // Listening again: the next change arrives by its poke.
    await mutate(phone.db, 'profile.update', { bio: 'Back' }, phone.context());
    await phone.engine.sync();
    await vi.waitFor(async () => expect((await laptop.db.user_profiles.get(user.id))?.bio).toBe('Back'), wait);
    expect(syncs).toBe(3);
    off();
    await client.disconnect();
  });
});
