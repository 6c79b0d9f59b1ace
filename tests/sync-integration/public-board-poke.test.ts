/**
 * The voting board live across users (docs/sync-protocol.md, "Poke"): a device with the board open
 * listens on `public:voting` through the app's own poke stream (src/sync/poke-stream.ts, topics from
 * src/backend/live-topics.ts), so another user's poll and votes reach it by a poke and a pull, not
 * by the 30 s poll (no poll runs here: every pull below is a poke's or a stream opening's). The
 * stack's throttle timers are held, so the test decides when a topic's interval ends: a burst of
 * votes inside one interval reaches the board by the trailing poke, with the final count.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { VOTING_TOPIC, listenOn, liveTopics } from '../../src/backend/live-topics.ts';
import { mutate } from '../../src/data/mutate.ts';
import { installPokeStream, pokeUrl } from '../../src/sync/poke-stream.ts';
import { dbKinds } from '../support/db.ts';
import { PokeStream, fetchPokeSource } from '../support/poke-stream-reader.ts';
import {
  STACK_URL,
  makeDevice,
  signUpUser,
  startSyncStack,
  type Device,
  type SyncStack,
  type TestUser,
} from '../support/sync-harness.ts';
import { TEST_ANON_KEY } from '../support/test-keys.ts';
import { ManualTimers } from '../sync/fake-server.ts';

const wait = { timeout: 10_000, interval: 20 };

describe.each(dbKinds)('the voting board live across users (%s)', (kind) => {
  let stack: SyncStack;
  const throttle = new ManualTimers();
  const devices: Device[] = [];
  const offs: (() => void)[] = [];

  beforeAll(async () => {
    stack = await startSyncStack({ kind, poke: { clock: throttle } });
  });
  afterAll(async () => {
    for (const off of offs.splice(0)) off();
    // A pull a poke started ends before its database closes.
    await Promise.all(devices.map((d) => d.engine.sync().catch(() => undefined)));
    for (const device of devices.splice(0)) device.close();
    await stack.close();
  });

  const device = (name: string, user: TestUser) => {
    const made = makeDevice(name, user);
    devices.push(made);
    return made;
  };

  /** The device's poke stream, as the app installs it, over the in-process stack. */
  function listen(d: Device) {
    const source = fetchPokeSource(stack.fetch);
    offs.push(
      installPokeStream(d.engine, {
        baseUrl: STACK_URL,
        anonKey: TEST_ANON_KEY,
        token: async () => (await d.user.client.auth.getSession()).data.session?.access_token ?? null,
        topics: liveTopics,
        openSource: source.open,
        probe: async () => 401,
      }),
    );
    return source;
  }

  /** A raw stream on the user's own topic, read event by event. */
  async function openStream(user: TestUser): Promise<PokeStream> {
    const token = (await user.client.auth.getSession()).data.session!.access_token;
    const response = await stack.fetch(pokeUrl(STACK_URL, TEST_ANON_KEY, token));
    const stream = new PokeStream(response);
    offs.push(() => void stream.close());
    expect(await stream.next(10_000)).toMatchObject({ event: 'ready' });
    return stream;
  }

  const votes = async (d: Device, id: string) => (await d.db.voting_posts.get(id))?.options.map((o) => o.votes);

  it('a public poll and its votes reach the open board by pokes, the last vote of a burst too', async () => {
    const [viewer, author, ...voters] = await Promise.all(Array.from({ length: 6 }, () => signUpUser(stack)));
    const board = device('viewer', viewer!);
    const phone = device('author', author!);
    const offBoard = listenOn(VOTING_TOPIC);
    offs.push(offBoard);
    const source = listen(board);
    // Listening: the stream names the board's topic and pulls once.
    await vi.waitFor(() => expect(board.transport.calls.pull).toBeGreaterThan(0), wait);
    expect(new URL(source.opened.at(-1)!).searchParams.getAll('topic')).toEqual([VOTING_TOPIC]);

    // Another user creates a public poll: the board is poked at once and pulls it.
    const id = randomUUID();
    await mutate(phone.db, 'poll.create', { id, title: 'Lunch', options: ['Pizza', 'Sushi'] }, phone.context());
    await phone.engine.sync();
    await vi.waitFor(async () => expect(await votes(board, id)).toEqual([0, 0]), wait);
    expect(source.heard.pokes).toBe(1);

    // A burst of votes inside the topic's interval: no poke yet, the board still shows none. Each
    // voter hears its own poke, so the stack has taken every vote's pokes before the interval ends.
    for (const [index, voter] of voters.entries()) {
      const own = await openStream(voter);
      const { data, error } = await voter.client.rpc('sync_push', {
        p_mutations: [
          { id: randomUUID(), name: 'poll.vote', args: { id: randomUUID(), post_id: id, option_index: index % 2 } },
        ],
      });
      expect(error).toBeNull();
      expect(data).toMatchObject({ results: [{ status: 'applied' }] });
      expect(await own.next(10_000)).toMatchObject({ event: 'poke' });
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

    // The board closes: the stream opens again without its topic, and a vote pokes it no more;
    // the next poke it hears is its own user's (a change from the viewer's other device).
    offBoard();
    await vi.waitFor(() => expect(source.heard.ready).toBe(2), wait);
    expect(source.opened).toHaveLength(2);
    expect(new URL(source.opened[1]!).searchParams.getAll('topic')).toEqual([]);
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
