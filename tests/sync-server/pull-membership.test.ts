/**
 * In sync_pull: memberships bind to the caller's confirmed e-mail
 * address (never the JWT's claim), and directory rows carry the owner's plan (`owner_tier`),
 * re-sent when it changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { as, createUser, dbKinds, freshDb } from '../support/db.ts';
import { idsOf, makeDirectory, makeLinks, mutation, pull, pullAll, push, uuid } from './sync.ts';

describe.each(dbKinds)('sync_pull and confirmed e-mail (%s)', (kind) => {
  let db: Db;
  beforeAll(async () => {
    db = await freshDb(kind);
  });
  afterAll(() => db.close());

  async function sharedDirectory(invitedEmail: string, links = 3) {
    const owner = await createUser(db, { tier: 'team' });
    const dir = await makeDirectory(db, owner, 'Shared');
    await makeLinks(db, dir.id, links);
    const member = uuid();
    const [invite] = await push(
      db,
      owner,
      mutation('member.invite', { id: member, directory_id: dir.id, user_email: invitedEmail, role: 'viewer' }),
    );
    expect(invite!.status).toBe('applied');
    return { owner, dir, member };
  }

  const setConfirmed = (id: string, confirmed: boolean) =>
    db.query(`update auth.users set email_confirmed_at = ${confirmed ? 'now()' : 'null'} where id = $1`, [id]);

  it('shows an unconfirmed account no shared directory; after confirming, the next pull brings it whole', async () => {
    const invitee = await createUser(db);
    await setConfirmed(invitee.id, false);
    const { dir, member } = await sharedDirectory(invitee.email);
    // The JWT names the invited address, but nobody has opened a link mailed to it yet.
    const unconfirmed = await pullAll(db, invitee, null, 2);
    expect(idsOf(unconfirmed.pages, 'link_directories')).toEqual([]);
    expect(idsOf(unconfirmed.pages, 'saved_links')).toEqual([]);
    expect(idsOf(unconfirmed.pages, 'directory_members')).toEqual([]);

    await setConfirmed(invitee.id, true);
    const confirmed = await pullAll(db, invitee, unconfirmed.cursor, 2);
    expect(idsOf(confirmed.pages, 'link_directories')).toEqual([dir.id]);
    expect(idsOf(confirmed.pages, 'saved_links')).toHaveLength(3);
    expect(idsOf(confirmed.pages, 'directory_members')).toEqual([member]);
  });

  it("purges the old address's directories after an e-mail change, and brings the new address's", async () => {
    const invitee = await createUser(db);
    const old = await sharedDirectory(invitee.email);
    const newEmail = `changed-${uuid().slice(0, 8)}@example.com`;
    const fresh = await sharedDirectory(newEmail, 2);
    const before = await pullAll(db, invitee);
    expect(idsOf(before.pages, 'link_directories')).toEqual([old.dir.id]);

    // The change took effect (confirmed through the mailed link); the device still holds a token
    // issued for the old address.
    await db.query('update auth.users set email = $2, email_confirmed_at = now() where id = $1', [
      invitee.id,
      newEmail,
    ]);
    const after = await pullAll(db, invitee, before.cursor);
    expect(after.pages[0]!.purge.directory_ids).toEqual([old.dir.id]);
    expect(idsOf(after.pages, 'link_directories')).toEqual([fresh.dir.id]);
    expect(idsOf(after.pages, 'saved_links')).toHaveLength(2);
    // A first pull with the old claim sees nothing of the old directory either.
    const scratch = await pullAll(db, invitee);
    expect(idsOf(scratch.pages, 'link_directories')).toEqual([fresh.dir.id]);
  });
});

describe.each(dbKinds)('sync_pull and the owner plan (%s)', (kind) => {
  let db: Db;
  beforeAll(async () => {
    db = await freshDb(kind);
  });
  afterAll(() => db.close());

  const setTier = (id: string, tier: string) =>
    as(db, { role: 'service_role' }, (sql) => sql.query('select public.set_subscription_tier($1, $2)', [id, tier]));

  it("sends directory rows with the owner's plan, to the owner and to members", async () => {
    const owner = await createUser(db, { tier: 'pro' });
    const member = await createUser(db);
    const dir = await makeDirectory(db, owner, 'Shared');
    await push(
      db,
      owner,
      mutation('member.invite', { id: uuid(), directory_id: dir.id, user_email: member.email, role: 'viewer' }),
    );
    const own = await createUser(db);
    const [created] = await push(db, own, mutation('directory.create', { id: uuid(), name: 'Mine' }));
    expect(created!.rows.link_directories![0]).toMatchObject({ owner_tier: 'free' });

    expect((await pull(db, owner)).changes.link_directories).toEqual([
      expect.objectContaining({ id: dir.id, owner_tier: 'pro' }),
    ]);
    const memberPull = await pull(db, member);
    expect(memberPull.changes.link_directories).toEqual([expect.objectContaining({ id: dir.id, owner_tier: 'pro' })]);
    expect(memberPull.changes.user_profiles![0]).toMatchObject({ id: member.id, subscription_tier: 'free' });
  });

  it("re-sends a directory when its owner's plan changes, and not otherwise", async () => {
    const owner = await createUser(db, { tier: 'team' });
    const member = await createUser(db);
    const dir = await makeDirectory(db, owner, 'Team');
    await makeLinks(db, dir.id, 4);
    await push(
      db,
      owner,
      mutation('member.invite', { id: uuid(), directory_id: dir.id, user_email: member.email, role: 'editor' }),
    );
    const first = await pullAll(db, member, null, 2);
    expect(idsOf(first.pages, 'link_directories')).toEqual([dir.id]);
    const quiet = await pull(db, member, first.cursor);
    expect(quiet.changes.link_directories).toEqual([]);

    await setTier(owner.id, 'free');
    const downgraded = await pullAll(db, member, quiet.cursor, 2);
    const rows = downgraded.pages.flatMap((page) => page.changes.link_directories ?? []);
    expect(rows.at(-1)).toMatchObject({ id: dir.id, owner_tier: 'free' });
    // Only the directory row comes again, not its content.
    expect(idsOf(downgraded.pages, 'saved_links')).toEqual([]);
    const ownerPull = await pull(db, owner);
    expect(ownerPull.changes.link_directories).toEqual([expect.objectContaining({ owner_tier: 'free' })]);
  });
});
