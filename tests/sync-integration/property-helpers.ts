/**
 * The sync property test's histories (property.test.ts on PGlite, property-postgres.test.ts on
 * PostgreSQL): one file per database, so a run's two workers take one each instead of one worker
 * running both in turn (the longest file of the tests step).
 *
 * SYNC_PROPERTY_RUNS (default 25) runs, seeds SYNC_PROPERTY_SEED, SYNC_PROPERTY_SEED + 1, ...
 * A failure names its seed: rerun with SYNC_PROPERTY_SEED=<seed> SYNC_PROPERTY_RUNS=1.
 */
import { mulberry32, type Prng } from '../support/prng.ts';
import { makeDevice, signUpUser, type SyncStack } from '../support/sync-harness.ts';
import { check, checkOptimistic, cleanUp, quiesce } from './property-checks.ts';
import { editRecent, mutations, run, type Op, type World } from './property-mutations.ts';

export const RUNS = Math.max(1, Number(process.env.SYNC_PROPERTY_RUNS ?? 25));
export const BASE_SEED = process.env.SYNC_PROPERTY_SEED ? Number(process.env.SYNC_PROPERTY_SEED) : 20261122;
const VERBOSE = process.env.SYNC_PROPERTY_VERBOSE === '1';

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

export async function property(stack: SyncStack, seed: number): Promise<void> {
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
