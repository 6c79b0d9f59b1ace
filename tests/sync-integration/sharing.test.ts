/**
 * Shared directories end to end: an owner, an editor and a viewer, each on a
 * device with its own Dexie database and sync engine, through supabase-js against the local
 * stack in-process. Tiers change as the billing webhook changes them: set_subscription_tier with
 * the service-role key.
 */
import { describe, expect, it } from 'vitest';
import { whereGroup } from '../../src/data/group-range.ts';
import { messages } from '../../src/domain/sync-codes.ts';
import { dbKinds } from '../support/db.ts';
import {
  matchesServer,
  newLink,
  refusedLocally,
  run,
  serverLinks,
  setTier,
  setupSharing,
  synced,
  team,
  uuid,
} from './sharing-helpers.ts';

describe.each(dbKinds)('shared directories through sync (%s)', (kind) => {
  setupSharing(kind);

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
});
