/**
 * Shared directories end to end (as sharing.test.ts): a role change as the owner's tier changes,
 * member.remove purging an ex-member's device, and who may invite, change roles and remove members.
 */
import { describe, expect, it } from 'vitest';
import { whereGroup } from '../../src/data/group-range.ts';
import { messages } from '../../src/domain/sync-codes.ts';
import { createSupabaseTransport } from '../../src/backend/sync-transport.ts';
import { dbKinds } from '../support/db.ts';
import { serverView, signUpUser } from '../support/sync-harness.ts';
import {
  matchesServer,
  newLink,
  refusedLocally,
  run,
  serverLinks,
  setTier,
  setupSharing,
  stack,
  synced,
  team,
  uuid,
} from './sharing-helpers.ts';

describe.each(dbKinds)('shared directories through sync (%s)', (kind) => {
  setupSharing(kind);

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
