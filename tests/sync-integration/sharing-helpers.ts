/**
 * The shared setup of the shared-directory tests through sync (sharing*.test.ts): the stack of
 * one kind, devices that keep their rejections and purges, the tier as the billing webhook sets
 * it, and a team (an owner, an editor and a viewer) synced. `stack` is a live binding, set by
 * `setupSharing` before each kind's tests.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import { serverClient } from '../../supabase/functions/_shared/client.ts';
import { TEST_SERVICE_ROLE_KEY } from '../support/test-keys.ts';
import { mutate } from '../../src/data/mutate.ts';
import type { MutationArgs, MutationName } from '../../src/domain/mutation-contract.ts';
import { type PushResult } from '../../src/backend/sync-transport.ts';
import type { Tier } from '../../src/domain/plans.ts';
import type { DbKind } from '../support/db.ts';
import {
  STACK_URL,
  localView,
  makeDevice,
  serverView,
  signUpUser,
  startSyncStack,
  type Device,
  type SyncStack,
  type TestUser,
} from '../support/sync-harness.ts';

export const uuid = () => randomUUID();

/** A device that also keeps every rejection it was answered and every purge it pulled. */
export interface Watched {
  d: Device;
  rejections: Pick<PushResult, 'code' | 'message'>[];
  purged: string[];
}

export let stack: SyncStack;
const devices: Device[] = [];

/** Registers the stack of one kind (in a `describe` of `dbKinds`): started before its tests, closed after with its devices. */
export function setupSharing(kind: DbKind): void {
  beforeAll(async () => {
    stack = await startSyncStack({ kind });
  });
  afterAll(async () => {
    for (const made of devices.splice(0)) made.close();
    await stack.close();
  });
}

export function device(name: string, user: TestUser): Watched {
  const rejections: Watched['rejections'] = [];
  const d = makeDevice(name, user, {
    onRejected: (message, result) => rejections.push({ code: result.code, message }),
  });
  devices.push(d);
  const purged: string[] = [];
  const pull = d.transport.pull.bind(d.transport);
  d.transport.pull = async (cursor, limit) => {
    const answer = await pull(cursor, limit);
    purged.push(...(answer.purge?.directory_ids ?? []));
    return answer;
  };
  return { d, rejections, purged };
}

/** The billing webhook's call: the service role sets the tier on the server. */
export async function setTier(user: TestUser, tier: Tier): Promise<void> {
  const service = serverClient(STACK_URL, TEST_SERVICE_ROLE_KEY, stack.fetch);
  const { data, error } = await service.rpc('set_subscription_tier', { p_user_id: user.id, p_tier: tier });
  if (error) throw new Error(`set_subscription_tier: ${error.message}`);
  expect(data).toBe(tier);
}

export const run = <N extends MutationName>(w: Watched, name: N, args: MutationArgs[N]) =>
  mutate(w.d.db, name, args, w.d.context());

/** Expects the device's own check to refuse the mutation (nothing queued). */
export async function refusedLocally<N extends MutationName>(w: Watched, name: N, args: MutationArgs[N], code: string) {
  const queued = await w.d.db.outbox.count();
  await expect(run(w, name, args)).rejects.toMatchObject({ name: 'MutationError', code });
  expect(await w.d.db.outbox.count()).toBe(queued);
}

export async function synced(...watched: Watched[]): Promise<void> {
  for (const w of watched) expect(await w.d.engine.sync(), w.d.name).toBe('synced');
}

export async function matchesServer(...watched: Watched[]): Promise<void> {
  for (const w of watched) expect(await localView(w.d.db), w.d.name).toEqual(await serverView(w.d.user));
}

export async function newLink(w: Watched, directoryId: string, title: string): Promise<string> {
  const id = uuid();
  await run(w, 'link.create', { id, directory_id: directoryId, url: `https://x.test/${title}`, title });
  return id;
}

export async function serverLinks(directoryId: string) {
  const { rows } = await stack.db.query<{ id: string; title: string; is_favorite: boolean; created_by: string }>(
    `select id, title, is_favorite, created_by from public.saved_links
     where directory_id = $1 and deleted_at is null order by title`,
    [directoryId],
  );
  return rows;
}

/** Owner (Pro unless told) with a directory of `links` links, an editor and a viewer invited and synced. */
export async function team(options: { ownerTier?: Tier; links?: number } = {}) {
  const [ownerUser, editorUser, viewerUser] = await Promise.all([
    signUpUser(stack, { tier: options.ownerTier ?? 'pro' }),
    signUpUser(stack, { tier: 'free' }),
    signUpUser(stack, { tier: 'free' }),
  ]);
  const owner = device('owner', ownerUser);
  const editor = device('editor', editorUser);
  const viewer = device('viewer', viewerUser);
  await synced(owner, editor, viewer);
  const dir = uuid();
  await run(owner, 'directory.create', { id: dir, name: 'Team reading' });
  const links: string[] = [];
  for (let i = 0; i < (options.links ?? 2); i += 1) links.push(await newLink(owner, dir, `owner-${i}`));
  const editorMember = uuid();
  const viewerMember = uuid();
  await run(owner, 'member.invite', {
    id: editorMember,
    directory_id: dir,
    user_email: editorUser.email,
    role: 'editor',
  });
  await run(owner, 'member.invite', {
    id: viewerMember,
    directory_id: dir,
    user_email: viewerUser.email,
    role: 'viewer',
  });
  await synced(owner, editor, viewer);
  expect(owner.rejections).toEqual([]);
  return { owner, editor, viewer, dir, links, editorMember, viewerMember };
}
