/**
 *  (docs/product.md, Decisions): the server queues the invitation mail in
 * public.outgoing_mail in the transaction that applies member.invite: exactly once, never for a
 * replay of the same mutation, never for a refused invite.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { setSiteUrl } from '../../supabase/local/migrate.ts';
import { as, createUser, dbKinds, freshDb, insertRow, type Actor } from '../support/db.ts';

type User = Required<Pick<Actor, 'id' | 'email'>>;
interface Result {
  id: string;
  status: string;
  code?: string;
}
interface Mail {
  to_address: string;
  subject: string;
  body: string;
  sender_id: string | null;
}

describe.each(dbKinds)('the invitation mail is queued by the server (%s)', (kind) => {
  let db: Db;
  let owner: User;
  let stranger: User;
  let dir: { id: string };
  const stamp = Date.now().toString(36);
  const username = `ada${stamp}`;

  beforeAll(async () => {
    db = await freshDb(kind);
    owner = await createUser(db, { tier: 'pro', username, email: `Ada-${stamp}@example.com` });
    stranger = await createUser(db);
    dir = await insertRow(db, 'link_directories', { name: 'Team Reading', owner_id: owner.id, is_public: false });
    await setSiteUrl(db, 'https://app.example/');
  });
  afterAll(() => db.close());

  const push = async (actor: Actor, ...mutations: unknown[]) => {
    const { rows } = await as(db, actor, (sql) =>
      sql.query<{ r: { results: Result[] } }>('select public.sync_push($1::jsonb) as r', [JSON.stringify(mutations)]),
    );
    return rows[0]!.r.results;
  };
  const invite = (to: string, role = 'viewer', directory = dir.id, id = randomUUID()) => ({
    id: randomUUID(),
    name: 'member.invite',
    args: { id, directory_id: directory, user_email: to, role },
  });
  const mailsTo = async (to: string) =>
    (
      await db.query<Mail>(
        'select to_address, subject, body, sender_id from public.outgoing_mail where to_address = $1',
        [to],
      )
    ).rows;

  it('queues one mail with the text and absolute link the client used to compose', async () => {
    const to = `bob-${stamp}@example.com`;
    const mutation = invite(to);
    expect((await push(owner, mutation))[0]).toMatchObject({ status: 'applied' });
    const mails = await mailsTo(to);
    expect(mails).toEqual([
      {
        to_address: to,
        subject: 'You have been invited to Team Reading on Linkboard',
        body: [
          `${owner.email} invited you to the directory "Team Reading" on Linkboard as a Viewer.`,
          '',
          `Open it here: https://app.example/Links/${username}/dir/${dir.id}`,
          '',
          `Sign in, or create an account, with this email address (${to}) to see it.`,
        ].join('\n'),
        sender_id: owner.id,
      },
    ]);
  });

  it('says "an Editor" for an editor', async () => {
    const to = `eve-${stamp}@example.com`;
    expect((await push(owner, invite(to, 'editor')))[0]).toMatchObject({ status: 'applied' });
    const [mail] = await mailsTo(to);
    expect(mail?.body).toContain('on Linkboard as an Editor.');
  });

  it('queues nothing for a replay of the same mutation, in a later push or the same one', async () => {
    const to = `carol-${stamp}@example.com`;
    const mutation = invite(to);
    expect((await push(owner, mutation, mutation))[1]).toMatchObject({ status: 'applied' });
    expect((await push(owner, mutation))[0]).toMatchObject({ status: 'applied' });
    expect(await mailsTo(to)).toHaveLength(1);
  });

  it('queues nothing for a refused invite', async () => {
    const to = `dan-${stamp}@example.com`;
    // Not the owner.
    expect((await push(stranger, invite(to)))[0]).toMatchObject({ status: 'rejected', code: 'forbidden' });
    // A directory that does not exist.
    expect((await push(owner, invite(to, 'viewer', randomUUID())))[0]).toMatchObject({ status: 'rejected' });
    // Already a member (the first invite is mailed, the second refused and not).
    expect((await push(owner, invite(to)))[0]).toMatchObject({ status: 'applied' });
    expect((await push(owner, invite(to)))[0]).toMatchObject({ status: 'rejected' });
    expect(await mailsTo(to)).toHaveLength(1);
    // Invalid arguments.
    expect((await push(owner, invite(`frank-${stamp}@example.com`, 'admin')))[0]).toMatchObject({
      status: 'rejected',
      code: 'invalid',
    });
    expect(await mailsTo(`frank-${stamp}@example.com`)).toEqual([]);
  });

  it('refuses the 51st invitation an hour from one inviter, with nothing written', async () => {
    const inviter = await createUser(db, { tier: 'pro', username: `bulk${stamp}` });
    const own = await insertRow<{ id: string }>(db, 'link_directories', { name: 'Bulk', owner_id: inviter.id });
    await db.query(
      `insert into private.throttle_attempts (bucket, subject) select 'invite_mail', $1 from generate_series(1, 50)`,
      [inviter.id],
    );
    const to = `zed-${stamp}@example.com`;
    expect((await push(inviter, invite(to, 'viewer', own.id)))[0]).toMatchObject({
      status: 'rejected',
      code: 'limit_reached',
      message: 'You have sent too many invitations. Please try again in an hour.',
    });
    expect(await mailsTo(to)).toEqual([]);
    const { rows } = await db.query('select 1 from public.directory_members where user_email = $1', [to]);
    expect(rows).toEqual([]);
  });

  it('links with the relative path when no site URL is set', async () => {
    await db.query("delete from private.settings where key = 'site_url'");
    const to = `gina-${stamp}@example.com`;
    expect((await push(owner, invite(to)))[0]).toMatchObject({ status: 'applied' });
    const [mail] = await mailsTo(to);
    expect(mail?.body).toContain(`Open it here: /Links/${username}/dir/${dir.id}\n`);
    await setSiteUrl(db, 'https://app.example');
  });

  it('keeps the settings and the mail helper closed to client roles', async () => {
    // The owner may not send an invitation's mail again outside member.invite (its insert's trigger).
    const to = `again-${stamp}@example.com`;
    const member = invite(to);
    expect((await push(owner, member))[0]?.status).toBe('applied');
    for (const actor of [owner, stranger, { role: 'anon' } as Actor]) {
      await expect(
        as(db, actor, (sql) => sql.query('select private.queue_invitation_mail($1)', [member.args.id])),
      ).rejects.toMatchObject({ code: '42501' });
    }
    expect(await mailsTo(to)).toHaveLength(1);
    for (const actor of [owner, { role: 'anon' } as Actor]) {
      await expect(as(db, actor, (sql) => sql.query('select * from private.settings'))).rejects.toMatchObject({
        code: '42501',
      });
      await expect(as(db, actor, (sql) => sql.query("select private.setting('site_url')"))).rejects.toMatchObject({
        code: '42501',
      });
    }
  });
});
