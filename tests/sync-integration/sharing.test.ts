/**
 * Shared directories end to end: an owner, an editor and a viewer, each on a
 * device with its own Dexie database and sync engine, through supabase-js against the local
 * stack in-process. Tiers change as the billing webhook changes them: set_subscription_tier with
 * the service-role key.
 */
import { whereGroup } from '../../src/data/group-range.ts';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverClient } from '../../supabase/functions/_shared/client.ts';
import { TEST_SERVICE_ROLE_KEY } from '../support/test-keys.ts';
import { mutate } from '../../src/data/mutate.ts';
import type { MutationArgs, MutationName } from '../../src/domain/mutation-contract.ts';
import { createSupabaseTransport, type PushResult } from '../../src/backend/sync-transport.ts';
import { messages } from '../../src/domain/sync-codes.ts';
import type { Tier } from '../../src/domain/plans.ts';
import { dbKinds } from '../support/db.ts';
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

const uuid = () => randomUUID();

/** A device that also keeps every rejection it was answered and every purge it pulled. */
interface Watched {
  d: Device;
  rejections: Pick<PushResult, 'code' | 'message'>[];
  purged: string[];
}

describe.each(dbKinds)('shared directories through sync (%s)', (kind) => {
  let stack: SyncStack;
  const devices: Device[] = [];

  beforeAll(async () => {
    stack = await startSyncStack({ kind });
  });
  afterAll(async () => {
    for (const made of devices) made.close();
    await stack.close();
  });

  function device(name: string, user: TestUser): Watched {
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
  async function setTier(user: TestUser, tier: Tier): Promise<void> {
    const service = serverClient(STACK_URL, TEST_SERVICE_ROLE_KEY, stack.fetch);
    const { data, error } = await service.rpc('set_subscription_tier', { p_user_id: user.id, p_tier: tier });
    if (error) throw new Error(`set_subscription_tier: ${error.message}`);
    expect(data).toBe(tier);
  }

  const run = <N extends MutationName>(w: Watched, name: N, args: MutationArgs[N]) =>
    mutate(w.d.db, name, args, w.d.context());

  /** Expects the device's own check to refuse the mutation (nothing queued). */
  async function refusedLocally<N extends MutationName>(w: Watched, name: N, args: MutationArgs[N], code: string) {
    const queued = await w.d.db.outbox.count();
    await expect(run(w, name, args)).rejects.toMatchObject({ name: 'MutationError', code });
    expect(await w.d.db.outbox.count()).toBe(queued);
  }

  async function synced(...watched: Watched[]): Promise<void> {
    for (const w of watched) expect(await w.d.engine.sync(), w.d.name).toBe('synced');
  }

  async function matchesServer(...watched: Watched[]): Promise<void> {
    for (const w of watched) expect(await localView(w.d.db), w.d.name).toEqual(await serverView(w.d.user));
  }

  async function newLink(w: Watched, directoryId: string, title: string): Promise<string> {
    const id = uuid();
    await run(w, 'link.create', { id, directory_id: directoryId, url: `https://x.test/${title}`, title });
    return id;
  }

  async function serverLinks(directoryId: string) {
    const { rows } = await stack.db.query<{ id: string; title: string; is_favorite: boolean; created_by: string }>(
      `select id, title, is_favorite, created_by from public.saved_links
       where directory_id = $1 and deleted_at is null order by title`,
      [directoryId],
    );
    return rows;
  }

  /** Owner (Pro unless told) with a directory of `links` links, an editor and a viewer invited and synced. */
  async function team(options: { ownerTier?: Tier; links?: number } = {}) {
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

  it('an editor and a viewer pull the directory; the editor adds, edits, favourites and deletes links', async () => {
    const { owner, editor, viewer, dir, links, editorMember, viewerMember } = await team();
    for (const member of [editor, viewer]) {
      expect(await member.d.db.link_directories.get(dir)).toMatchObject({
        name: 'Team reading',
        owner_id: owner.d.user.id,
      });
      expect((await whereGroup(member.d.db.saved_links, 'directory_id', dir).primaryKeys()).sort()).toEqual(
        [...links].sort(),
      );
      expect((await member.d.db.directory_members.where('directory_id').equals(dir).primaryKeys()).sort()).toEqual(
        [editorMember, viewerMember].sort(),
      );
    }
    await matchesServer(editor, viewer);

    const added = await newLink(editor, dir, 'by-editor');
    await synced(editor, owner);
    expect(await owner.d.db.saved_links.get(added)).toMatchObject({
      title: 'by-editor',
      directory_id: dir,
      owner_id: owner.d.user.id,
      created_by: editor.d.user.id,
    });

    await run(editor, 'link.update', { id: added, title: 'by-editor, edited', notes: 'read later' });
    await synced(editor, owner);
    expect(await owner.d.db.saved_links.get(added)).toMatchObject({ title: 'by-editor, edited', notes: 'read later' });

    // The editor is Free, but favourites in this directory follow its Pro owner's plan.
    await run(editor, 'link.set_favorite', { id: added, value: true });
    await synced(editor, owner);
    expect(await owner.d.db.saved_links.get(added)).toMatchObject({ is_favorite: true });

    await run(editor, 'link.delete', { id: links[0]! });
    await synced(editor, owner, viewer);
    expect(await owner.d.db.saved_links.get(links[0]!)).toBeUndefined();
    expect(await viewer.d.db.saved_links.get(links[0]!)).toBeUndefined();
    expect(await viewer.d.db.saved_links.get(added)).toMatchObject({ title: 'by-editor, edited', is_favorite: true });
    expect(editor.rejections).toEqual([]);
    expect((await serverLinks(dir)).map((link) => link.title)).toEqual(['by-editor, edited', 'owner-1']);
    await matchesServer(owner, editor, viewer);
  });

  it("an editor's link counts against the owner's Free limit, and is rolled back on the editor's device", async () => {
    const { owner, editor, dir, links } = await team({ links: 30 });
    await setTier(owner.d.user, 'free'); // a downgrade, as the billing webhook makes it
    owner.d.user.tier = 'free';
    expect(await whereGroup(editor.d.db.saved_links, 'directory_id', dir).count()).toBe(30);

    // The editor owns no link and cannot know the owner's plan: the server refuses.
    const late = await newLink(editor, dir, 'thirty-first');
    expect(await editor.d.db.saved_links.get(late)).toBeDefined();
    await synced(editor);
    expect(editor.rejections).toEqual([{ code: 'limit_reached', message: messages.moreLinks }]);
    expect(await editor.d.db.saved_links.get(late)).toBeUndefined();
    expect(await whereGroup(editor.d.db.saved_links, 'directory_id', dir).count()).toBe(30);
    expect(await editor.d.db.outbox.count()).toBe(0);
    expect(await serverLinks(dir)).toHaveLength(30);
    await matchesServer(editor);

    // Below the limit again, the same editor's link is applied: it was the owner's limit that refused it.
    await run(owner, 'link.delete', { id: links[0]! });
    await synced(owner, editor);
    const fits = await newLink(editor, dir, 'fits');
    await synced(editor, owner);
    expect(editor.rejections).toHaveLength(1);
    expect(await owner.d.db.saved_links.get(fits)).toMatchObject({ owner_id: owner.d.user.id });
    await matchesServer(owner, editor);
  });

  it("a viewer's link.create, link.update and directory.update are refused forbidden and restored", async () => {
    const { owner, viewer, dir, links, viewerMember } = await team();
    // Whatever the device believes, the server decides: the viewer's device still thinks it is an
    // editor (the demotion happened while it was offline).
    await run(owner, 'member.set_role', { id: viewerMember, role: 'editor' });
    await synced(owner, viewer);
    viewer.d.transport.offline = true;
    await run(owner, 'member.set_role', { id: viewerMember, role: 'viewer' });
    await synced(owner);

    const before = await viewer.d.db.link_directories.get(dir);
    const created = await newLink(viewer, dir, 'by-viewer');
    await run(viewer, 'link.update', { id: links[0]!, title: 'changed by viewer' });
    // directory.update is refused by every device's own check (owner only); a client that skips
    // it (an older build, a hand-written one) queues it as-is, optimistic change included.
    await viewer.d.db.transaction('rw', viewer.d.db.link_directories, viewer.d.db.outbox, async () => {
      await viewer.d.db.link_directories.update(dir, { name: 'Taken over' });
      await viewer.d.db.outbox.add({
        id: uuid(),
        name: 'directory.update',
        args: { id: dir, name: 'Taken over' },
        created_at: new Date().toISOString(),
        attempts: 0,
        status: 'pending',
      });
    });
    expect(await viewer.d.engine.sync()).toBe('offline');
    expect(await viewer.d.db.saved_links.get(created)).toBeDefined();
    expect(await viewer.d.db.saved_links.get(links[0]!)).toMatchObject({ title: 'changed by viewer' });
    expect(await viewer.d.db.link_directories.get(dir)).toMatchObject({ name: 'Taken over' });

    viewer.d.transport.offline = false;
    await synced(viewer);
    expect(viewer.rejections).toEqual([
      { code: 'forbidden', message: 'Failed to save link. Please try again.' },
      { code: 'forbidden', message: 'Failed to save link. Please try again.' },
      { code: 'forbidden', message: 'Failed to update directory. Please try again.' },
    ]);
    expect(await viewer.d.db.saved_links.get(created)).toBeUndefined();
    expect(await viewer.d.db.saved_links.get(links[0]!)).toMatchObject({ title: 'owner-0' });
    expect(await viewer.d.db.link_directories.get(dir)).toEqual(before);
    expect(await viewer.d.db.directory_members.get(viewerMember)).toMatchObject({ role: 'viewer' });
    expect(await viewer.d.db.outbox.count()).toBe(0);
    expect((await serverLinks(dir)).map((link) => link.title)).toEqual(['owner-0', 'owner-1']);
    await matchesServer(owner, viewer);

    // Now the device knows it is a viewer, and its own check refuses at once.
    await refusedLocally(
      viewer,
      'link.create',
      { id: uuid(), directory_id: dir, url: 'https://x.test', title: 'x' },
      'forbidden',
    );
    await refusedLocally(viewer, 'link.update', { id: links[1]!, title: 'x' }, 'forbidden');
  });

  it('viewer to editor takes effect: refused while the owner is Free, allowed once Pro', async () => {
    const { owner, viewer, dir, viewerMember } = await team();
    await refusedLocally(
      viewer,
      'link.create',
      { id: uuid(), directory_id: dir, url: 'https://x.test', title: 'v' },
      'forbidden',
    );

    // Downgraded by the webhook; the owner's device has not heard yet and lets the change through.
    await setTier(owner.d.user, 'free');
    await run(owner, 'member.set_role', { id: viewerMember, role: 'editor' });
    expect(await owner.d.db.directory_members.get(viewerMember)).toMatchObject({ role: 'editor' });
    await synced(owner, viewer);
    expect(owner.rejections).toEqual([{ code: 'limit_reached', message: messages.editorRole }]);
    expect(await owner.d.db.directory_members.get(viewerMember)).toMatchObject({ role: 'viewer' });
    expect(await viewer.d.db.directory_members.get(viewerMember)).toMatchObject({ role: 'viewer' });
    await matchesServer(owner, viewer);

    owner.d.user.tier = 'free';
    await refusedLocally(owner, 'member.set_role', { id: viewerMember, role: 'editor' }, 'limit_reached');

    await setTier(owner.d.user, 'pro');
    owner.d.user.tier = 'pro';
    await run(owner, 'member.set_role', { id: viewerMember, role: 'editor' });
    await synced(owner, viewer);
    expect(owner.rejections).toHaveLength(1);
    expect(await viewer.d.db.directory_members.get(viewerMember)).toMatchObject({ role: 'editor' });

    const added = await newLink(viewer, dir, 'promoted');
    await synced(viewer, owner);
    expect(viewer.rejections).toEqual([]);
    expect(await owner.d.db.saved_links.get(added)).toMatchObject({ created_by: viewer.d.user.id });
    await matchesServer(owner, viewer);
  });

  it("member.remove purges the directory from the ex-member's device, pending changes included", async () => {
    const { owner, editor, viewer, dir, editorMember, viewerMember } = await team();
    editor.d.transport.offline = true;
    const queued = await newLink(editor, dir, 'queued-before-removal');
    await run(owner, 'member.remove', { id: editorMember });
    await synced(owner);
    expect(await owner.d.db.directory_members.get(editorMember)).toBeUndefined();

    editor.d.transport.offline = false;
    await synced(editor);
    expect(editor.rejections).toEqual([{ code: 'forbidden', message: 'Failed to save link. Please try again.' }]);
    expect(editor.purged).toEqual([dir]);
    expect(await editor.d.db.link_directories.get(dir)).toBeUndefined();
    expect(await whereGroup(editor.d.db.saved_links, 'directory_id', dir).count()).toBe(0);
    expect(await editor.d.db.directory_members.where('directory_id').equals(dir).count()).toBe(0);
    expect(await editor.d.db.outbox.count()).toBe(0);
    expect(await serverLinks(dir)).toHaveLength(2);
    expect((await serverView(editor.d.user)).link_directories).toEqual([]);
    await matchesServer(editor);
    await refusedLocally(
      editor,
      'link.create',
      { id: queued, directory_id: dir, url: 'https://x.test', title: 'x' },
      'not_found',
    );

    // The viewer keeps the directory and sees the editor's membership go.
    await synced(viewer);
    expect(viewer.purged).toEqual([]);
    expect(await viewer.d.db.link_directories.get(dir)).toBeDefined();
    expect(await viewer.d.db.directory_members.where('directory_id').equals(dir).primaryKeys()).toEqual([viewerMember]);
    await matchesServer(owner, viewer);

    // Invited again, the ex-member gets the whole directory back, unchanged rows included.
    const again = uuid();
    await run(owner, 'member.invite', {
      id: again,
      directory_id: dir,
      user_email: editor.d.user.email,
      role: 'viewer',
    });
    await synced(owner, editor);
    expect(await editor.d.db.link_directories.get(dir)).toMatchObject({ name: 'Team reading' });
    expect(await whereGroup(editor.d.db.saved_links, 'directory_id', dir).count()).toBe(2);
    expect((await editor.d.db.directory_members.where('directory_id').equals(dir).primaryKeys()).sort()).toEqual(
      [again, viewerMember].sort(),
    );
    await matchesServer(owner, editor);
  });

  it('only the owner invites, changes roles and removes members', async () => {
    const { owner, editor, viewer, dir, editorMember, viewerMember } = await team();
    const stranger = await signUpUser(stack, { tier: 'pro' });
    for (const member of [editor, viewer]) {
      await refusedLocally(
        member,
        'member.invite',
        { id: uuid(), directory_id: dir, user_email: stranger.email, role: 'viewer' },
        'forbidden',
      );
      await refusedLocally(member, 'member.remove', { id: viewerMember }, 'forbidden');
      await refusedLocally(member, 'member.set_role', { id: editorMember, role: 'viewer' }, 'forbidden');
    }

    // The server refuses the same mutations from a client that skips the check.
    for (const member of [editor, viewer]) {
      const invite = uuid();
      const transport = createSupabaseTransport(member.d.user.client);
      const answer = await transport.push([
        {
          id: uuid(),
          name: 'member.invite',
          args: { id: invite, directory_id: dir, user_email: stranger.email, role: 'viewer' },
        },
        { id: uuid(), name: 'member.remove', args: { id: viewerMember } },
        { id: uuid(), name: 'member.remove', args: { id: editorMember } },
        { id: uuid(), name: 'member.set_role', args: { id: editorMember, role: 'viewer' } },
      ]);
      expect(answer.results.map((result) => [result.status, result.code])).toEqual([
        ['rejected', 'forbidden'],
        ['rejected', 'forbidden'],
        ['rejected', 'forbidden'],
        ['rejected', 'forbidden'],
      ]);
      expect(answer.results[0]?.deleted).toEqual({ directory_members: [invite] });
      expect(answer.results[3]?.rows).toMatchObject({ directory_members: [{ id: editorMember, role: 'editor' }] });
    }
    const { rows } = await stack.db.query<{ user_email: string; role: string }>(
      `select user_email, role from public.directory_members
       where directory_id = $1 and deleted_at is null order by role`,
      [dir],
    );
    expect(rows).toEqual([
      { user_email: editor.d.user.email, role: 'editor' },
      { user_email: viewer.d.user.email, role: 'viewer' },
    ]);
    await synced(owner, editor, viewer);
    await matchesServer(owner, editor, viewer);
  });
});
