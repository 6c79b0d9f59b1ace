/**
 * The public voting board's poke (docs/sync-protocol.md, "Poke"): a stream that names the public
 * topic `public:voting` (the board is open) is poked when a public poll is created or voted on; a
 * stream without it (the board is closed) is not, nor is the board for a team poll or a rejected
 * vote. Still no data; what a poked device pulls is what sync_pull shows it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStack } from '../../supabase/local/app.ts';
import type { Db } from '../../supabase/local/db.ts';
import { TEST_ANON_KEY, TEST_JWT_SECRET } from '../support/test-keys.ts';
import { dbKinds, freshDb } from '../support/db.ts';
import { PokeStream } from '../support/poke-stream-reader.ts';
import { signUpConfirmed, type StackUser } from './stack-users.ts';

const BASE = 'http://127.0.0.1:54321';
const BOARD = 'public:voting';
let db: Db;
let call: typeof fetch;

const signUp = (tier: 'free' | 'team' = 'free') => signUpConfirmed(call, db, { base: BASE, prefix: 'board', tier });

async function push(user: StackUser, name: string, args: Record<string, unknown>) {
  const { data, error } = await user.client.rpc('sync_push', { p_mutations: [{ id: randomUUID(), name, args }] });
  expect(error).toBeNull();
  return (data as { results: { status: string }[] }).results[0]!.status;
}

const pokeUrl = (token: string, topics: string[]) => {
  const url = new URL('/sync/v1/poke', BASE);
  url.searchParams.set('access_token', token);
  url.searchParams.set('apikey', TEST_ANON_KEY);
  for (const topic of topics) url.searchParams.append('topic', topic);
  return url.toString();
};

const streams: PokeStream[] = [];
async function open(user: StackUser, topics: string[] = []): Promise<PokeStream> {
  const response = await call(pokeUrl(user.token, topics));
  expect(response.status).toBe(200);
  const stream = new PokeStream(response);
  streams.push(stream);
  expect(await stream.next()).toMatchObject({ event: 'ready' });
  return stream;
}

/** Lets pokes of an earlier push (they follow its commit asynchronously) arrive before counting. */
async function drain(...open: PokeStream[]) {
  for (const stream of open) while ((await stream.next(400)) !== null);
}

const poll = (id: string, directory_id?: string) => ({
  id,
  title: `Lunch ${id}`,
  options: ['Pizza', 'Sushi'],
  ...(directory_id ? { directory_id } : {}),
});

describe.each(dbKinds)('the voting board’s poke on %s', (kind) => {
  beforeAll(async () => {
    db = await freshDb(kind);
    const app = createStack({ db, jwtSecret: TEST_JWT_SECRET });
    call = async (input, init) => app.fetch(new Request(input, init));
  });
  afterAll(async () => {
    for (const stream of streams.splice(0)) await stream.close();
    await db.close();
  });

  it('pokes the open boards when a public poll is created and voted on, not a device without the board', async () => {
    const [author, voter, viewer, away] = await Promise.all([signUp(), signUp(), signUp(), signUp()]);
    const [board, closed] = await Promise.all([open(viewer, [BOARD]), open(away)]);
    const id = randomUUID();
    expect(await push(author, 'poll.create', poll(id))).toBe('applied');
    expect(await board.next()).toEqual({ event: 'poke', data: '1' });
    expect(await push(voter, 'poll.vote', { id: randomUUID(), post_id: id, option_index: 1 })).toBe('applied');
    expect(await board.next()).toEqual({ event: 'poke', data: '2' });
    expect(await closed.next(300)).toBeNull();
    // No data: neither the poll, its title nor its options.
    expect(board.raw).not.toMatch(/Lunch|Pizza|Sushi/);
    expect(board.raw).not.toContain(id);

    // The board's viewer pulls the new count: what sync_pull shows every signed-in user.
    const { data } = await viewer.client.rpc('sync_pull', { p_cursor: null });
    const pulled = (data as { changes: { voting_posts?: { id: string; options: { votes: number }[] }[] } }).changes;
    expect(pulled.voting_posts?.find((row) => row.id === id)?.options.map((o) => o.votes)).toEqual([0, 1]);
  });

  it('pokes nobody on the board for a rejected vote or a team poll; the team’s people are poked', async () => {
    const [owner, voter, viewer] = await Promise.all([signUp('team'), signUp(), signUp()]);
    const id = randomUUID();
    expect(await push(owner, 'poll.create', poll(id))).toBe('applied');
    expect(await push(voter, 'poll.vote', { id: randomUUID(), post_id: id, option_index: 0 })).toBe('applied');
    const [board, ownerStream] = await Promise.all([open(viewer, [BOARD]), open(owner)]);
    await drain(board, ownerStream);

    // A second vote on the same poll is refused: nothing changed, nobody pulls.
    expect(await push(voter, 'poll.vote', { id: randomUUID(), post_id: id, option_index: 1 })).toBe('rejected');
    expect(await board.next(300)).toBeNull();

    // A team poll is the directory's: its owner is poked, the public board is not.
    const dir = randomUUID();
    expect(await push(owner, 'directory.create', { id: dir, name: 'Team' })).toBe('applied');
    await drain(ownerStream);
    expect(await push(owner, 'poll.create', poll(randomUUID(), dir))).toBe('applied');
    expect(await ownerStream.next()).toMatchObject({ event: 'poke' });
    expect(await board.next(300)).toBeNull();
  });

  it('refuses another user’s topic and malformed topics with 400', async () => {
    const [user, other] = await Promise.all([signUp(), signUp()]);
    const refused = [
      [`user:${other.id}`],
      ['public:Voting'],
      ['public:voting\u0000'],
      ['public:\ud800'],
      ['voting'],
      Array.from({ length: 9 }, (_, i) => `public:board-${i}`),
    ];
    for (const topics of refused) {
      const response = await call(pokeUrl(user.token, topics));
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'invalid_topic' });
    }
    await open(user, [BOARD, BOARD, 'public:other']);
  });
});
