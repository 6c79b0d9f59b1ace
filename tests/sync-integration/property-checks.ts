/**
 * What the sync property test (property-helpers.ts) checks: each pending change visible locally between
 * steps, the devices quiescent, then every device holding what the server shows its user and every
 * mutation answered exactly once; and the run's clean-up.
 */
import { expect } from 'vitest';
import { localView, serverView, type Device, type SyncStack } from '../support/sync-harness.ts';
import type { World } from './property-mutations.ts';

/**
 * Between steps: every pending change is visible locally, whatever the last push or pull wrote
 * (docs/sync-protocol.md: an optimistic change is never lost to an older server row). The expected fields are
 * derived from the outbox alone, last write wins per field.
 */
export async function checkOptimistic(device: Device): Promise<void> {
  const expected = new Map<string, Record<string, unknown> | 'deleted'>();
  const expect_ = (table: string, id: string, fields: Record<string, unknown>) => {
    const key = `${table}/${id}`;
    const current = expected.get(key);
    expected.set(key, { ...(current === 'deleted' || !current ? {} : current), ...fields });
  };
  const pick = (args: Record<string, unknown>, keys: string[]) =>
    Object.fromEntries(keys.filter((k) => args[k] !== undefined).map((k) => [k, args[k]]));
  for (const m of await device.db.outbox.orderBy('seq').toArray()) {
    const args = m.args;
    const id = String(args.id);
    switch (m.name) {
      case 'link.create':
        expect_('saved_links', id, pick(args, ['title', 'url']));
        break;
      case 'link.update':
        expect_('saved_links', id, pick(args, ['title', 'url', 'notes', 'tags']));
        break;
      case 'link.set_favorite':
        expect_('saved_links', id, { is_favorite: args.value });
        break;
      case 'link.delete':
        expected.set(`saved_links/${id}`, 'deleted');
        break;
      case 'task.set_completed':
        expect_('calendar_events', id, { is_completed: args.value });
        break;
      case 'directory.update':
        expect_('link_directories', id, pick(args, ['name', 'description', 'color']));
        break;
      case 'profile.update':
        expect_('user_profiles', device.user.id, pick(args, ['bio', 'full_name']));
        break;
      default:
    }
  }
  for (const [key, fields] of expected) {
    const [table, id] = key.split('/') as [string, string];
    const row = (await device.db.table(table).get(id)) as Record<string, unknown> | undefined;
    if (fields === 'deleted') {
      expect(row, `${device.name}: pending delete of ${key}`).toBeUndefined();
    } else if (row) {
      expect(pick(row, Object.keys(fields)), `${device.name}: pending change of ${key}`).toEqual(fields);
    }
  }
}

export async function quiesce(world: World): Promise<void> {
  for (const device of world.devices) {
    device.transport.offline = false;
    device.transport.dropPushAnswers = 0;
    device.transport.dropPullAnswers = 0;
  }
  let clean = 0;
  for (let round = 0; round < 10; round += 1) {
    const outcomes: string[] = [];
    for (const device of world.devices) outcomes.push(await device.engine.sync());
    const waiting = (await Promise.all(world.devices.map((d) => d.db.outbox.count()))).reduce((a, b) => a + b, 0);
    world.log.push(`quiesce round ${round}: ${outcomes.join(', ')}; ${waiting} waiting`);
    clean = waiting === 0 && outcomes.every((o) => o === 'synced') ? clean + 1 : 0;
    if (clean === 2) return;
  }
  throw new Error('the devices did not become quiescent in 10 rounds');
}

export async function check(stack: SyncStack, world: World): Promise<void> {
  for (const device of world.devices) {
    expect(await device.db.outbox.toArray(), `${device.name} outbox`).toEqual([]);
    const local = await localView(device.db);
    const server = await serverView(device.user);
    expect(local, `${device.name} holds what the server shows ${device.user.email}`).toEqual(server);
  }

  // Exactly once: every queued mutation answered once; vote counts equal the vote rows.
  for (const [userId, ids] of world.queued) {
    const { rows } = await stack.db.query<{ mutation_id: string; status: string }>(
      `select mutation_id::text, result ->> 'status' as status from public.sync_mutations
       where user_id = $1 and mutation_id = any ($2::uuid[])`,
      [userId, ids],
    );
    expect(rows.map((r) => r.mutation_id).sort(), `answers recorded for ${userId}`).toEqual([...ids].sort());
  }
  const userIds = [world.owner.id, world.guest.id];
  const { rows: counts } = await stack.db.query<{ post_id: string; idx: number; counted: number; actual: number }>(
    `select p.id::text as post_id, (o.n - 1)::int as idx, (o.opt ->> 'votes')::int as counted,
            (select count(*)::int from public.user_votes v
              where v.post_id = p.id and v.option_index = o.n - 1 and v.deleted_at is null) as actual
     from public.voting_posts p cross join lateral jsonb_array_elements(p.options) with ordinality o(opt, n)
     where p.created_by_id = any ($1::uuid[]) and p.kind = 'choice'`,
    [userIds],
  );
  for (const row of counts) expect(row.counted, `votes of ${row.post_id}[${row.idx}]`).toBe(row.actual);
  // Time polls: one answers row per voter, and each slot's counts are the answers' (each answer once).
  const { rows: slotCounts } = await stack.db.query<{ slot: string; yes: number; maybe: number; y: number; m: number }>(
    `select p.id::text || '/' || (o.opt ->> 'id') as slot, (o.opt ->> 'yes')::int as yes, (o.opt ->> 'maybe')::int as maybe,
            (select count(*)::int from public.slot_answers a where a.post_id = p.id and a.answers ->> (o.opt ->> 'id') = 'yes') as y,
            (select count(*)::int from public.slot_answers a where a.post_id = p.id and a.answers ->> (o.opt ->> 'id') = 'maybe') as m
     from public.voting_posts p cross join lateral jsonb_array_elements(p.options) o(opt)
     where p.kind = 'time' and p.created_by_id = any ($1::uuid[])`,
    [[world.owner.id, world.guest.id]],
  );
  for (const row of slotCounts) expect([row.yes, row.maybe], `answers of ${row.slot}`).toEqual([row.y, row.m]);
  const { rows: twoRows } = await stack.db.query(
    'select post_id, user_id, count(*) from public.slot_answers group by post_id, user_id having count(*) > 1',
  );
  expect(twoRows).toEqual([]);
  const { rows: doubles } = await stack.db.query(
    `select post_id, user_id, count(*) from public.user_votes where deleted_at is null
     group by post_id, user_id having count(*) > 1`,
  );
  expect(doubles).toEqual([]);
  const { rows: votes } = await stack.db.query<{ applied: number; stored: number }>(
    `select (select count(*)::int from public.sync_mutations m
              where m.user_id = any ($1::uuid[]) and m.result ->> 'status' = 'applied'
                and m.result -> 'rows' -> 'user_votes' is not null
                and jsonb_array_length(m.result -> 'rows' -> 'user_votes') > 0
                and exists (select 1 from public.user_votes v where v.id = (m.result #>> '{rows,user_votes,0,id}')::uuid
                            and v.user_id = m.user_id and m.mutation_id is not null)) as applied,
            (select count(*)::int from public.user_votes v where v.user_id = any ($1::uuid[])) as stored`,
    [userIds],
  );
  expect(votes[0]!.stored).toBe(votes[0]!.applied);
}

export async function cleanUp(stack: SyncStack, world: World): Promise<void> {
  for (const device of world.devices) device.close();
  // Public polls are visible to every user: drop this run's, so later runs stay small.
  const ids = [world.owner.id, world.guest.id];
  await stack.db.query(
    `delete from public.user_votes where post_id in (select id from public.voting_posts where created_by_id = any ($1::uuid[]))`,
    [ids],
  );
  await stack.db.query('delete from public.voting_posts where created_by_id = any ($1::uuid[])', [ids]);
}
