/**
 * The voting board live across users (docs/sync-protocol.md, "Poke"): a device with the board open
 * listens on `public:voting` through the app's own poke client (src/sync/realtime-poke.ts, topics
 * from src/backend/live-topics.ts) and supabase-js's RealtimeClient on the stack's Realtime socket,
 * so another user's poll and votes reach it by a poke and a pull, not by the 30 s poll (no poll
 * runs here: every pull below is a poke's or a channel joining's). The socket's throttle timers are
 * held, so the test decides when a topic's interval ends: a burst of votes inside one interval
 * reaches the board by the trailing poke, with the final count.
 */
import { randomUUID } from 'node:crypto';
import type { RealtimeClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { VOTING_TOPIC, listenOn, liveTopics } from '../../src/backend/live-topics.ts';
import { mutate } from '../../src/data/mutate.ts';
import { installRealtimePoke } from '../../src/sync/realtime-poke.ts';
import { dbKinds } from '../support/db.ts';
import { listen as listenAs, realtimeClient, until } from '../support/realtime-listener.ts';
import {
  makeDevice,
  signUpUser,
  startSyncStack,
  type Device,
  type SyncStack,
  type TestUser,
} from '../support/sync-harness.ts';
import { startRealtimeBeside, type RealtimeBeside } from '../support/realtime-beside.ts';
import { ManualTimers } from '../sync/fake-server.ts';

const wait = { timeout: 10_000, interval: 20 };
const tokenOf = async (user: TestUser) => (await user.client.auth.getSession()).data.session!.access_token;

describe.each(dbKinds)('the voting board live across users (%s)', (kind) => {
  let stack: SyncStack;
  let socket: RealtimeBeside;
  const throttle = new ManualTimers();
  const devices: Device[] = [];
  const clients: RealtimeClient[] = [];
  const offs: (() => void)[] = [];

  beforeAll(async () => {
    stack = await startSyncStack({ kind });
    socket = await startRealtimeBeside(stack.db, { poke: { clock: throttle } });
  });
  afterAll(async () => {
    for (const off of offs.splice(0)) off();
    for (const client of clients.splice(0)) await client.disconnect();
    // A pull a poke started ends before its database closes.
    await Promise.all(devices.map((d) => d.engine.sync().catch(() => undefined)));
    for (const device of devices.splice(0)) device.close();
    await socket.close();
    await stack.close();
  });

  const device = (name: string, user: TestUser) => {
    const made = makeDevice(name, user);
    devices.push(made);
    return made;
  };

  /** The app's poke client for the device, on supabase-js's RealtimeClient; counts what it hears. */
  function listen(d: Device) {
    const client = realtimeClient(socket.base);
    clients.push(client);
    const heard = { pokes: 0, joined: 0, topics: [] as string[] };
    const channel = client.channel.bind(client);
    client.channel = (topic, options) => {
      const made = channel(topic, options);
      heard.topics.push(topic);
      made.on('broadcast', { event: 'poke' }, () => (heard.pokes += 1));
      return made;
    };
    offs.push(
      installRealtimePoke(d.engine, {
        realtime: client,
        userId: d.user.id,
        token: () => tokenOf(d.user),
        topics: liveTopics,
      }),
    );
    return { client, heard };
  }

  const votes = async (d: Device, id: string) => (await d.db.voting_posts.get(id))?.options.map((o) => o.votes);

  it('a public poll and its votes reach the open board by pokes, the last vote of a burst too', async () => {
    const [viewer, author, ...voters] = await Promise.all(Array.from({ length: 6 }, () => signUpUser(stack)));
    const board = device('viewer', viewer!);
    const phone = device('author', author!);
    const offBoard = listenOn(VOTING_TOPIC);
    offs.push(offBoard);
    const source = listen(board);
    // Listening: its own channel and the board's, each pulls once joined.
    await vi.waitFor(() => expect(board.transport.calls.pull).toBeGreaterThan(0), wait);
    await until(
      () => source.client.getChannels().filter((c) => c.state === 'joined').length === 2,
      'two joined channels',
    );
    expect(source.heard.topics).toEqual([`user:${viewer!.id}`, VOTING_TOPIC]);

    // Another user creates a public poll: the board is poked at once and pulls it.
    const id = randomUUID();
    await mutate(phone.db, 'poll.create', { id, title: 'Lunch', options: ['Pizza', 'Sushi'] }, phone.context());
    await phone.engine.sync();
    await vi.waitFor(async () => expect(await votes(board, id)).toEqual([0, 0]), wait);
    expect(source.heard.pokes).toBe(1);

    // A burst of votes inside the topic's interval: no poke yet, the board still shows none. Each
    // voter hears its own poke, so the stack has taken every vote's pokes before the interval ends.
    for (const [index, voter] of voters.entries()) {
      const own = await listenAs(realtimeClient(socket.base, await tokenOf(voter)), `user:${voter.id}`);
      clients.push(own.channel.socket as RealtimeClient);
      const { data, error } = await voter.client.rpc('sync_push', {
        p_mutations: [
          { id: randomUUID(), name: 'poll.vote', args: { id: randomUUID(), post_id: id, option_index: index % 2 } },
        ],
      });
      expect(error).toBeNull();
      expect(data).toMatchObject({ results: [{ status: 'applied' }] });
      await until(() => own.pokes === 1, 'the voter’s own poke');
    }
    expect(source.heard.pokes).toBe(1);
    expect(await votes(board, id)).toEqual([0, 0]);
    // The interval ends: one trailing poke, and the board pulls the final count, after the last commit.
    const pullsBefore = board.transport.calls.pull;
    throttle.fireAll();
    await vi.waitFor(async () => expect(await votes(board, id)).toEqual([2, 2]), wait);
    expect(source.heard.pokes).toBe(2);
    expect(board.transport.calls.pull).toBeGreaterThan(pullsBefore);
    throttle.fireAll();
    expect(throttle.scheduled).toBe(0);

    // The board closes: its channel is left, and a vote pokes it no more; the next poke it hears
    // is its own user's (a change from the viewer's other device).
    offBoard();
    await until(() => source.client.getChannels().length === 1, 'the board’s channel left');
    expect(source.client.getChannels().map((c) => c.subTopic)).toEqual([`user:${viewer!.id}`]);
    const late = await signUpUser(stack);
    const { error } = await late.client.rpc('sync_push', {
      p_mutations: [{ id: randomUUID(), name: 'poll.vote', args: { id: randomUUID(), post_id: id, option_index: 0 } }],
    });
    expect(error).toBeNull();
    const laptop = device('viewer-laptop', viewer!);
    await mutate(laptop.db, 'profile.update', { bio: 'Hello' }, laptop.context());
    await laptop.engine.sync();
    await vi.waitFor(() => expect(source.heard.pokes).toBe(3), wait);
    await vi.waitFor(async () => expect((await board.db.user_profiles.get(viewer!.id))?.bio).toBe('Hello'), wait);
    expect(source.heard.pokes).toBe(3);
  });
});
