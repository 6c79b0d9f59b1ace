/**
 * Property test of the whole sync path: three devices (two of one user, one of
 * a member of that user's shared directory) make random mutations through `mutate`, go offline,
 * lose answers after the server committed, and restart; then all go online and sync until
 * quiescent. Every device must then hold exactly what the server shows its user, and every
 * mutation must have taken effect exactly once.
 *
 * SYNC_PROPERTY_RUNS (default 25) runs, seeds SYNC_PROPERTY_SEED, SYNC_PROPERTY_SEED + 1, ...
 * A failure names its seed: rerun with SYNC_PROPERTY_SEED=<seed> SYNC_PROPERTY_RUNS=1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mutate } from '../../src/data/mutate.ts';
import { MutationError } from '../../src/data/mutation-error.ts';
import type { MutationArgs, MutationName } from '../../src/domain/mutation-contract.ts';
import type { OutboxRow } from '../../src/data/rows.ts';
import { directoryColors } from '../../src/domain/validation.ts';
import { dbKinds } from '../support/db.ts';
import { mulberry32, type Prng } from '../support/prng.ts';
import {
  localView,
  makeDevice,
  serverView,
  signUpUser,
  startSyncStack,
  type Device,
  type SyncStack,
  type TestUser,
} from '../support/sync-harness.ts';

const RUNS = Math.max(1, Number(process.env.SYNC_PROPERTY_RUNS ?? 25));
const BASE_SEED = process.env.SYNC_PROPERTY_SEED ? Number(process.env.SYNC_PROPERTY_SEED) : 20261122;
const VERBOSE = process.env.SYNC_PROPERTY_VERBOSE === '1';

interface World {
  rng: Prng;
  owner: TestUser;
  guest: TestUser;
  devices: Device[];
  shared: string;
  /** Mutation ids queued by each user (every one must be answered exactly once). */
  queued: Map<string, string[]>;
  /** The last mutations each device queued (newest first). */
  recent: Map<string, OutboxRow[]>;
  log: string[];
}

type Op = (world: World, device: Device) => Promise<string | null>;

async function run<N extends MutationName>(world: World, device: Device, name: N, args: MutationArgs[N]) {
  try {
    const row = await mutate(device.db, name, args, device.context(), { id: world.rng.uuid() });
    world.queued.get(device.user.id)!.push(row.id);
    world.recent.set(device.name, [row, ...(world.recent.get(device.name) ?? [])].slice(0, 6));
    return `${name} ${JSON.stringify(args)}`;
  } catch (error) {
    if (error instanceof MutationError) return `${name} refused locally (${error.code})`;
    throw error;
  }
}

const mutations: [weight: number, op: Op][] = [
  [
    2,
    (w, d) =>
      run(
        w,
        d,
        'profile.update',
        w.rng.chance(0.5) ? { bio: w.rng.word() } : { full_name: w.rng.word(), bio: w.rng.word() },
      ),
  ],
  [
    2,
    (w, d) =>
      run(w, d, 'directory.create', { id: w.rng.uuid(), name: w.rng.word(), color: w.rng.pick(directoryColors) }),
  ],
  [
    2,
    async (w, d) => {
      const mine = await d.db.link_directories.where('owner_id').equals(d.user.id).sortBy('id');
      const dir = w.rng.pick(mine);
      if (!dir) return null;
      return run(
        w,
        d,
        'directory.update',
        w.rng.chance(0.5)
          ? { id: dir.id, name: w.rng.word() }
          : { id: dir.id, description: w.rng.word(), color: w.rng.pick(directoryColors) },
      );
    },
  ],
  [
    8,
    async (w, d) => {
      const dirs = await d.db.link_directories.orderBy('id').toArray();
      const dir = w.rng.chance(0.5) && dirs.some((x) => x.id === w.shared) ? w.shared : w.rng.pick(dirs)?.id;
      if (!dir) return null;
      const title = w.rng.word();
      return run(w, d, 'link.create', {
        id: w.rng.uuid(),
        directory_id: dir,
        url: `https://example.com/${title}`,
        title,
        tags: w.rng.chance(0.3) ? [w.rng.word()] : [],
        is_favorite: w.rng.chance(0.2),
      });
    },
  ],
  [
    5,
    async (w, d) => {
      const link = w.rng.pick(await d.db.saved_links.orderBy('id').toArray());
      if (!link) return null;
      const args: MutationArgs['link.update'] = { id: link.id };
      if (w.rng.chance(0.6)) args.title = w.rng.word();
      if (w.rng.chance(0.4)) args.notes = w.rng.chance(0.2) ? null : w.rng.word();
      if (w.rng.chance(0.3)) args.tags = [w.rng.word(), w.rng.word()];
      return run(w, d, 'link.update', args);
    },
  ],
  [
    2,
    async (w, d) => {
      const link = w.rng.pick(await d.db.saved_links.orderBy('id').toArray());
      return link ? run(w, d, 'link.delete', { id: link.id }) : null;
    },
  ],
  [
    3,
    async (w, d) => {
      const link = w.rng.pick(await d.db.saved_links.orderBy('id').toArray());
      return link ? run(w, d, 'link.set_favorite', { id: link.id, value: w.rng.chance(0.5) }) : null;
    },
  ],
  [
    3,
    (w, d) => {
      const task = w.rng.chance(0.5);
      const start = new Date(Date.UTC(2026, 11, 1 + w.rng.int(28), w.rng.int(24)));
      return run(w, d, 'event.create', {
        id: w.rng.uuid(),
        title: w.rng.word(),
        starts_at: task && w.rng.chance(0.5) ? null : start.toISOString(),
        ends_at: task ? null : new Date(start.getTime() + 3_600_000).toISOString(),
        is_task: task,
        priority: task ? (w.rng.pick(['low', 'medium', 'high'] as const) ?? null) : null,
      });
    },
  ],
  [
    3,
    async (w, d) => {
      const tasks = await d.db.calendar_events
        .orderBy('id')
        .filter((e) => e.is_task)
        .toArray();
      const task = w.rng.pick(tasks);
      return task ? run(w, d, 'task.set_completed', { id: task.id, value: w.rng.chance(0.5) }) : null;
    },
  ],
  [
    2,
    (w, d) => {
      const team = d.user.tier === 'team' && w.rng.chance(0.7);
      return run(w, d, 'poll.create', {
        id: w.rng.uuid(),
        title: w.rng.word(),
        options: Array.from({ length: 2 + w.rng.int(3) }, (_, i) => `option ${i}`),
        directory_id: team ? w.shared : null,
      });
    },
  ],
  [
    4,
    async (w, d) => {
      const mine = (await d.db.voting_posts.orderBy('id').toArray()).filter(
        (poll) =>
          poll.directory_id === w.shared || poll.created_by_id === w.owner.id || poll.created_by_id === w.guest.id,
      );
      const poll = w.rng.pick(mine);
      if (!poll) return null;
      return run(w, d, 'poll.vote', {
        id: w.rng.uuid(),
        post_id: poll.id,
        option_index: w.rng.int(poll.options.length),
      });
    },
  ],
  [
    3,
    (w, d) => {
      // 'Find a time' (docs/product.md): a few slots days ahead, public or in the shared directory.
      const team = d.user.tier === 'team' && w.rng.chance(0.7);
      const first = Date.UTC(2031, 0, 1 + w.rng.int(28), 9);
      return run(w, d, 'poll.create_time', {
        id: w.rng.uuid(),
        title: w.rng.word(),
        time_zone: 'Europe/Lisbon',
        directory_id: team ? w.shared : null,
        slots: Array.from({ length: 2 + w.rng.int(3) }, (_, i) =>
          w.rng.chance(0.2)
            ? { id: w.rng.uuid(), day: new Date(first + i * 86_400_000).toISOString().slice(0, 10) }
            : { id: w.rng.uuid(), start: new Date(first + i * 3_600_000).toISOString(), minutes: 60 },
        ),
      });
    },
  ],
  [
    8,
    async (w, d) => {
      // One slot's answer, on the voter's one row for the poll (the row already on the device, else a new id):
      // two devices of one user answering offline end in one row on the server, every answer counted once.
      const polls = (await d.db.voting_posts.orderBy('id').toArray()).filter((poll) => poll.kind === 'time');
      const poll = w.rng.pick(polls);
      const slot = poll && w.rng.pick(poll.options);
      if (!poll || !slot?.id) return null;
      const mine = await d.db.slot_answers.where('[post_id+user_id]').equals([poll.id, d.user.id]).first();
      return run(w, d, 'poll.answer', {
        id: mine?.id ?? w.rng.uuid(),
        post_id: poll.id,
        slot_id: slot.id,
        answer: w.rng.pick(['yes', 'maybe', 'no'] as const)!,
      });
    },
  ],
  [
    1,
    (w, d) =>
      d.user.id === w.owner.id
        ? run(w, d, 'member.invite', {
            id: w.rng.uuid(),
            directory_id: w.shared,
            user_email: `guest-${w.rng.int(4)}-${w.rng.seed}@example.com`,
            role: 'viewer',
          })
        : Promise.resolve(null),
  ],
];

/** Edits again a link this device changed lately (same row, several queued changes). */
async function editRecent(world: World, device: Device): Promise<string | null> {
  const recent = [...(await device.db.outbox.orderBy('seq').toArray())]
    .reverse()
    .concat(world.recent.get(device.name) ?? [])
    .filter((m) => m.name.startsWith('link.') && m.name !== 'link.delete')
    .map((m) => String(m.args.id));
  for (const id of recent) {
    if (!(await device.db.saved_links.get(id))) continue;
    return world.rng.chance(0.7)
      ? run(world, device, 'link.update', { id, title: world.rng.word(), notes: world.rng.word() })
      : run(world, device, 'link.set_favorite', { id, value: world.rng.chance(0.5) });
  }
  return null;
}

const totalWeight = mutations.reduce((sum, [weight]) => sum + weight, 0);

function pickMutation(rng: Prng): Op {
  let roll = rng.int(totalWeight);
  for (const [weight, op] of mutations) {
    if (roll < weight) return op;
    roll -= weight;
  }
  return mutations[0]![1];
}

async function step(world: World): Promise<void> {
  const { rng, devices, log } = world;
  const device = rng.pick(devices)!;
  const roll = rng.next();
  let what: string | null;
  if (roll < 0.5) {
    what = await (rng.chance(0.3) ? editRecent(world, device) : pickMutation(rng)(world, device));
  } else if (roll < 0.6) {
    // The user keeps editing while a sync runs: the change lands between its push and its pull,
    // often on the row just pushed, so the pulled row is older than the pending change.
    let change: string | null = null;
    device.transport.beforePull = async () => {
      change = rng.chance(0.6) ? await editRecent(world, device) : await pickMutation(rng)(world, device);
    };
    const outcome = await device.engine.sync();
    device.transport.beforePull = null;
    what = `${change ?? 'nothing'} between push and pull -> ${outcome}`;
  } else if (roll < 0.75) {
    what = `sync -> ${await device.engine.sync()}`;
  } else if (roll < 0.82) {
    const other = rng.pick(devices.filter((d) => d !== device))!;
    const outcomes = await Promise.all([device.engine.sync(), other.engine.sync()]);
    what = `sync with ${other.name} -> ${outcomes.join(', ')}`;
  } else if (roll < 0.9) {
    device.transport.offline = !device.transport.offline;
    what = device.transport.offline ? 'offline' : 'online';
  } else if (roll < 0.95) {
    if (rng.chance(0.7)) {
      device.transport.dropPushAnswers += 1;
      device.transport.dropAfterPushes = rng.int(3);
    } else device.transport.dropPullAnswers += 1;
    what = `drop next answer -> ${await device.engine.sync()}`;
  } else {
    await device.engine.sync(); // an engine may be mid-way through nothing; a restart loses memory only
    await device.restart();
    what = 'restart';
  }
  if (what) log.push(`${device.name}: ${what}`);
  for (const each of devices) await checkOptimistic(each);
}

/**
 * Between steps: every pending change is visible locally, whatever the last push or pull wrote
 * (docs/sync-protocol.md: an optimistic change is never lost to an older server row). The expected fields are
 * derived from the outbox alone, last write wins per field.
 */
async function checkOptimistic(device: Device): Promise<void> {
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

async function quiesce(world: World): Promise<void> {
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

async function check(stack: SyncStack, world: World): Promise<void> {
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

async function cleanUp(stack: SyncStack, world: World): Promise<void> {
  for (const device of world.devices) device.close();
  // Public polls are visible to every user: drop this run's, so later runs stay small.
  const ids = [world.owner.id, world.guest.id];
  await stack.db.query(
    `delete from public.user_votes where post_id in (select id from public.voting_posts where created_by_id = any ($1::uuid[]))`,
    [ids],
  );
  await stack.db.query('delete from public.voting_posts where created_by_id = any ($1::uuid[])', [ids]);
}

async function property(stack: SyncStack, seed: number): Promise<void> {
  const rng = mulberry32(seed);
  const tag = `${seed}-${Date.now().toString(36)}`;
  const owner = await signUpUser(stack, { tier: 'team', email: `owner-${tag}@example.com` });
  const guest = await signUpUser(stack, { tier: 'pro', email: `guest-${tag}@example.com` });
  // Small pages and batches, so paging and partial pushes meet the dropped answers.
  const engineOptions = () => ({ pullLimit: 2 + rng.int(30), batchSize: 1 + rng.int(10) });
  const devices = [
    makeDevice('owner-1', owner, engineOptions()),
    makeDevice('owner-2', owner, engineOptions()),
    makeDevice('guest', guest, engineOptions()),
  ];
  const world: World = {
    rng,
    owner,
    guest,
    devices,
    shared: rng.uuid(),
    queued: new Map([
      [owner.id, []],
      [guest.id, []],
    ]),
    recent: new Map(),
    log: [],
  };
  try {
    const [first] = devices;
    await first!.engine.sync();
    await run(world, first!, 'directory.create', { id: world.shared, name: 'Shared' });
    await run(world, first!, 'member.invite', {
      id: rng.uuid(),
      directory_id: world.shared,
      user_email: guest.email,
      role: 'editor',
    });
    for (const device of devices) await device.engine.sync();

    const steps = 25 + rng.int(16);
    for (let i = 0; i < steps; i += 1) await step(world);
    await quiesce(world);
    await check(stack, world);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const detail = `sync property failed with SYNC_PROPERTY_SEED=${seed} SYNC_PROPERTY_RUNS=1\n${world.log.join('\n')}`;
    throw new Error(`${message}\n${detail}`, { cause: error });
  } finally {
    if (VERBOSE) console.log(`seed ${seed}\n${world.log.join('\n')}`);
    await cleanUp(stack, world);
  }
}

describe.each(dbKinds)('sync property (%s)', (kind) => {
  let stack: SyncStack;
  beforeAll(async () => {
    stack = await startSyncStack({ kind });
  });
  afterAll(async () => {
    await stack.close();
  });

  it(
    `${RUNS} random histories converge, exactly once`,
    async () => {
      for (let runIndex = 0; runIndex < RUNS; runIndex += 1) await property(stack, BASE_SEED + runIndex);
    },
    120_000 + RUNS * 15_000,
  );
});
