/**
 * The permission case table (tests/domain/permission-cases.ts) through the server's real rules:
 * each case is a mutation pushed with sync_push by a user holding the role, in a directory whose
 * owner is on the plan, on PGlite and PostgreSQL. A user with no role is told not_found (the
 * server does not say a directory it hides exists): that counts as forbidden.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import type { DirectoryAction } from '../../src/domain/permissions.ts';
import type { Tier } from '../../src/domain/plans.ts';
import { createUser, dbKinds, freshDb, insertRow } from '../support/db.ts';
import { changesOf, makeDirectory, mutation, pullAll, push, uuid } from '../sync-server/sync.ts';
import { othersAddresses } from '../support/addresses.ts';
import { permissionCases, type PermissionCase } from '../domain/permission-cases.ts';

interface Fixture {
  owner: { id: string; email: string };
  directory: string;
  link: string;
  member: string;
}

function caseMutation(action: DirectoryAction, at: Fixture) {
  const invite = (role: string) => ({
    id: uuid(),
    directory_id: at.directory,
    user_email: `${uuid()}@example.com`,
    role,
  });
  switch (action) {
    case 'link.create':
      return mutation(action, { id: uuid(), directory_id: at.directory, url: 'https://case.test', title: 'Case' });
    case 'link.update':
      return mutation(action, { id: at.link, title: 'Changed' });
    case 'link.delete':
      return mutation(action, { id: at.link });
    case 'link.favorite':
      return mutation('link.set_favorite', { id: at.link, value: true });
    case 'directory.update':
      return mutation(action, { id: at.directory, name: 'Changed' });
    case 'directory.delete':
      return mutation(action, { id: at.directory });
    case 'member.invite_viewer':
      return mutation('member.invite', invite('viewer'));
    case 'member.invite_editor':
      return mutation('member.invite', invite('editor'));
    case 'member.set_role_editor':
      return mutation('member.set_role', { id: at.member, role: 'editor' });
    case 'member.remove':
      return mutation(action, { id: at.member });
  }
}

describe.each(dbKinds)('permission cases through sync_push (%s)', (kind) => {
  let db: Db;
  let editor: { id: string; email: string };
  let viewer: { id: string; email: string };
  let stranger: { id: string; email: string };

  beforeAll(async () => {
    db = await freshDb(kind);
    editor = await createUser(db);
    viewer = await createUser(db);
    stranger = await createUser(db);
  });
  afterAll(() => db.close());

  /** A new owner on the plan (Free owns one directory), with a link, the editor and viewer as members, and one more viewer. */
  async function fixture(plan: Tier): Promise<Fixture> {
    const owner = await createUser(db, { tier: plan });
    const directory = String((await makeDirectory(db, owner)).id);
    const link = uuid();
    const member = uuid();
    await insertRow(db, 'saved_links', {
      id: link,
      directory_id: directory,
      url: 'https://a.test',
      title: 'A',
      owner_id: owner.id,
    });
    // An editor in a Free owner's directory can only have been made while the owner was Pro.
    await db.query(`update public.user_profiles set subscription_tier = 'pro' where id = $1`, [owner.id]);
    await insertRow(db, 'directory_members', { directory_id: directory, user_email: editor.email, role: 'editor' });
    await db.query(`update public.user_profiles set subscription_tier = $2 where id = $1`, [owner.id, plan]);
    await insertRow(db, 'directory_members', { directory_id: directory, user_email: viewer.email, role: 'viewer' });
    await insertRow(db, 'directory_members', {
      id: member,
      directory_id: directory,
      user_email: 'third@example.com',
      role: 'viewer',
    });
    return { owner, directory, link, member };
  }

  const actorOf = (c: PermissionCase, at: Fixture) =>
    c.role === 'owner' ? at.owner : c.role === 'editor' ? editor : c.role === 'viewer' ? viewer : stranger;

  it.each(permissionCases)('$role, $action, $plan owner: $answer', async (c) => {
    const at = await fixture(c.plan);
    const [result] = await push(db, actorOf(c, at), caseMutation(c.action, at));
    const answer = result!.status === 'applied' ? 'allowed' : result!.code === 'not_found' ? 'forbidden' : result!.code;
    if (result!.code === 'not_found') expect(c.role, 'only a user with no role is told not_found').toBeNull();
    expect(answer).toBe(c.answer);
    // Whatever the case did, the actor's pull carries no other user's address but the
    // directory's invitation addresses (docs/product.md, "Who sees what").
    const actor = actorOf(c, at);
    const { pages } = await pullAll(db, actor);
    expect(othersAddresses(actor.email, changesOf(pages))).toEqual([]);
  });
});
