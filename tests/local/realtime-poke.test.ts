/**
 * The poke through Supabase Realtime on the local stack (docs/sync-protocol.md, "Poke"): a push
 * broadcasts `poke` (no data) on the private channels of the users its applied changes concern,
 * delivered once it commits, through the socket at /realtime/v1/websocket; nobody else hears it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverClient } from '../../supabase/functions/_shared/client.ts';
import { dbKinds } from '../support/db.ts';
import { until } from '../support/realtime-listener.ts';
import { TEST_SERVICE_ROLE_KEY } from '../support/test-keys.ts';
import { startRealtimeStack, type RealtimeStack } from './realtime-stack.ts';
import type { StackUser } from './stack-users.ts';

describe.each(dbKinds)('the poke through Realtime on %s', (kind) => {
  let t: RealtimeStack;
  let owner: StackUser;
  let member: StackUser;
  let stranger: StackUser;
  let dir: string;
  beforeAll(async () => {
    t = await startRealtimeStack(kind);
    [owner, member, stranger] = await Promise.all([t.signUp('pro'), t.signUp(), t.signUp()]);
    dir = randomUUID();
    expect(
      await t.push(owner, [
        { name: 'directory.create', args: { id: dir, name: 'Shared' } },
        {
          name: 'member.invite',
          args: { id: randomUUID(), directory_id: dir, user_email: member.email, role: 'viewer' },
        },
      ]),
    ).toEqual(['applied', 'applied']);
  });
  afterAll(() => t.close());

  it('pokes the owner and the member when the owner adds a link, never a stranger, with no data', async () => {
    const [o, m, s] = await Promise.all([t.device(owner), t.device(member), t.device(stranger)]);
    const linkId = randomUUID();
    const seen: unknown[] = [];
    m.own.channel.on('broadcast', { event: '*' }, (message) => seen.push(message));
    expect(
      await t.push(owner, [
        {
          name: 'link.create',
          args: { id: linkId, directory_id: dir, url: 'https://secret.example.com/', title: 'Secret' },
        },
      ]),
    ).toEqual(['applied']);
    await t.fence(o, m, s);
    expect([o.own.pokes, m.own.pokes, s.own.pokes]).toEqual([1, 1, 0]);
    // No data: the broadcast is `poke` with an empty payload.
    expect(JSON.stringify(seen)).not.toMatch(/secret|Secret|example\.com/);
    expect(JSON.stringify(seen)).not.toContain(linkId);
    expect(seen).toEqual([{ type: 'broadcast', event: 'poke', payload: {} }]);
  });

  it('pokes only the pusher for the pusher’s own rows, and nobody for a rejected push', async () => {
    const [m, s] = await Promise.all([t.device(member), t.device(stranger)]);
    const start = new Date(Date.now() + 3_600_000).toISOString();
    expect(
      await t.push(stranger, [
        {
          name: 'event.create',
          args: { id: randomUUID(), title: 'Mine', starts_at: start, ends_at: start, is_task: false },
        },
      ]),
    ).toEqual(['applied']);
    await until(() => s.own.pokes === 1, 'the pusher’s poke');
    // The stranger cannot write into the directory, nor can a viewer: rejected, nobody poked.
    const intrude = {
      name: 'link.create',
      args: { id: randomUUID(), directory_id: dir, url: 'https://x.example/', title: 'x' },
    };
    expect(await t.push(stranger, [intrude])).toEqual(['rejected']);
    expect(await t.push(member, [{ ...intrude, args: { ...intrude.args, id: randomUUID() } }])).toEqual(['rejected']);
    await t.fence(m, s);
    expect([m.own.pokes, s.own.pokes]).toEqual([0, 1]);
  });

  it('pokes a member when the owner removes them, so their device purges the directory', async () => {
    const other = await t.signUp();
    const memberId = randomUUID();
    expect(
      await t.push(owner, [
        { name: 'member.invite', args: { id: memberId, directory_id: dir, user_email: other.email, role: 'viewer' } },
      ]),
    ).toEqual(['applied']);
    const device = await t.device(other);
    expect(await t.push(owner, [{ name: 'member.remove', args: { id: memberId } }])).toEqual(['applied']);
    await until(() => device.own.pokes === 1, 'the removed member’s poke');
  });

  it('pokes the user whose plan a billing event changed, and nobody for a replay', async () => {
    const [m, s] = await Promise.all([t.device(member), t.device(stranger)]);
    const service = serverClient(t.stack.url, TEST_SERVICE_ROLE_KEY, fetch);
    const event = {
      id: `evt_${randomUUID()}`,
      type: 'checkout.session.completed',
      created: Math.floor(Date.now() / 1000),
      user_id: member.id,
      status: 'active',
      plan: 'pro',
      billing_cycle: 'monthly',
    };
    expect((await service.rpc('apply_billing_event', { p_event: event })).data).toMatchObject({ outcome: 'applied' });
    await until(() => m.own.pokes === 1, 'the billing poke');
    expect((await service.rpc('apply_billing_event', { p_event: event })).data).toEqual({ outcome: 'duplicate' });
    await t.fence(m, s);
    expect([m.own.pokes, s.own.pokes]).toEqual([1, 0]);
  });

  it('pokes the open boards for a public poll and its votes; not for a rejected vote or a team poll', async () => {
    const [author, voter, viewer, team] = await Promise.all([t.signUp(), t.signUp(), t.signUp(), t.signUp('team')]);
    const [v, tm] = await Promise.all([t.device(viewer), t.device(team)]);
    const id = randomUUID();
    const poll = (pollId: string, extra: Record<string, unknown> = {}) => ({
      name: 'poll.create',
      args: { id: pollId, title: `Lunch ${pollId}`, options: ['Pizza', 'Sushi'], ...extra },
    });
    expect(await t.push(author, [poll(id)])).toEqual(['applied']);
    await until(() => v.board.pokes === 1, 'the board’s poke for the poll');
    const vote = (option: number) => ({
      name: 'poll.vote',
      args: { id: randomUUID(), post_id: id, option_index: option },
    });
    expect(await t.push(voter, [vote(1)])).toEqual(['applied']);
    await until(() => v.board.pokes === 2, 'the board’s poke for the vote');
    // A second vote of the same voter is refused: nothing changed, nobody pulls.
    expect(await t.push(voter, [vote(0)])).toEqual(['rejected']);
    // A team poll is its directory's: its owner is poked, the public board is not.
    const dir = randomUUID();
    expect(await t.push(team, [{ name: 'directory.create', args: { id: dir, name: 'Team' } }])).toEqual(['applied']);
    await until(() => tm.own.pokes === 1, 'the team owner’s poke for the directory');
    expect(await t.push(team, [poll(randomUUID(), { directory_id: dir })])).toEqual(['applied']);
    await until(() => tm.own.pokes === 2, 'the team owner’s poke for the team poll');
    const board = [v.board.pokes, tm.board.pokes];
    await t.fence(v, tm);
    expect([v.board.pokes, tm.board.pokes]).toEqual([board[0]! + 1, board[1]! + 1]);
    expect(v.board.pokes).toBe(3);
    expect(v.own.pokes).toBe(0);
  });
});
