/**
 * Contact messages and queued mail are throttled inside the database, keyed on
 * the client address the API gateway sets (request.headers) or on the signed-in sender.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { anonymous, as, createUser, dbKinds, freshDb, sqlError, type Actor } from '../support/db.ts';
import { fromAddress, throttled } from './throttle-support.ts';

const service: Actor = { role: 'service_role' };

describe.each(dbKinds)('contact and mail throttles (%s)', (kind) => {
  let db: Db;

  beforeAll(async () => {
    db = await freshDb(kind);
  });
  afterAll(() => db.close());

  const contact = (address: string, name = 'Ann', message = 'Hello') =>
    as(db, anonymous, async (sql) => {
      await fromAddress(sql, address);
      const { rows } = await sql.query<{ id: string }>('select public.submit_contact_message($1, $2, $3) as id', [
        name,
        'ann@example.com',
        message,
      ]);
      return rows[0]!.id;
    });
  const stored = async () =>
    Number((await db.query<{ n: string }>('select count(*) as n from public.contact_messages')).rows[0]?.n);

  const mail = (sender: string | null, client: string | null, to = 'support@linkboard.local') =>
    as(db, service, async (sql) => {
      const { rows } = await sql.query<{ id: string }>(
        "select public.enqueue_mail($1, 'Subject', 'Body', $2, $3, $4) as id",
        [to, sender, client, to === 'support@linkboard.local'],
      );
      return rows[0]!.id;
    });

  it('takes 5 contact messages an hour from one address; the 6th is refused with 429 and stores nothing', async () => {
    const before = await stored();
    for (let i = 0; i < 5; i++) await contact('198.51.100.20');
    expect(await throttled(contact('198.51.100.20'))).toEqual({
      code: 'PGRST',
      status: 429,
      retryAfter: expect.any(Number) as number,
      message: 'Too many messages. Please try again later.',
    });
    expect(await stored()).toBe(before + 5);
    await contact('198.51.100.21');
    expect(await stored()).toBe(before + 6);
  });

  it('a client cannot pick its address: the limit keys on the first X-Forwarded-For entry the gateway set', async () => {
    for (let i = 0; i < 5; i++) await contact('198.51.100.30, 10.0.0.1');
    expect((await throttled(contact('198.51.100.30, 10.0.0.2'))).status).toBe(429);
  });

  it('caps contact messages from everyone at 200 an hour', async () => {
    await db.query(
      `insert into private.throttle_attempts (bucket, subject) select 'contact_all', '' from generate_series(1, 200)`,
    );
    expect((await throttled(contact('198.51.100.40'))).status).toBe(429);
    await db.query("delete from private.throttle_attempts where bucket = 'contact_all'");
  });

  it('refuses invalid messages with 400 before counting them, and an over-long name instead of cutting it', async () => {
    const address = '198.51.100.50';
    for (let i = 0; i < 6; i++) expect((await sqlError(contact(address, ''))).code).toBe('22023');
    expect(await sqlError(contact(address, 'N'.repeat(201)))).toEqual({
      code: '22001',
      message: 'The name can be at most 200 characters.',
      hint: 'invalid',
    });
    // docs/product.md cuts the message itself to 4000 characters.
    const id = await contact(address, 'Ann', 'm'.repeat(5000));
    const { rows } = await db.query<{ n: number }>(
      'select char_length(message) as n from public.contact_messages where id = $1',
      [id],
    );
    expect(rows[0]?.n).toBe(4000);
    const nulls = await sqlError(
      as(db, anonymous, (sql) => sql.query('select public.submit_contact_message(null, null, null)')),
    );
    expect(nulls).toEqual({ code: '22023', message: 'Name, email and message are required.', hint: 'invalid' });
  });

  it('queues 50 mails an hour per signed-in sender, wherever they send from', async () => {
    const user = await createUser(db);
    const other = await createUser(db);
    for (let i = 0; i < 50; i++) await mail(user.id, `192.0.2.${i}`);
    expect(await throttled(mail(user.id, '192.0.2.200'))).toEqual({
      code: 'PGRST',
      status: 429,
      retryAfter: expect.any(Number) as number,
      message: 'Too many emails sent. Please try again later.',
    });
    await mail(other.id, '192.0.2.1');
  });

  it('lets a signed-in sender mail only someone invited to a directory they own, or their own confirmed address', async () => {
    const owner = await createUser(db);
    const stranger = 'stranger@example.com';
    // 403 with nothing queued: send-email is not a relay to any address.
    expect(await throttled(mail(owner.id, '192.0.2.9', stranger))).toEqual({
      code: 'PGRST',
      status: 403,
      retryAfter: NaN,
      message: 'You can send mail only to people you invited, to yourself, or to support.',
    });
    const queued = async (to: string) =>
      Number(
        (await db.query<{ n: string }>('select count(*) as n from public.outgoing_mail where to_address = $1', [to]))
          .rows[0]?.n,
      );
    expect(await queued(stranger)).toBe(0);

    const { rows } = await db.query<{ id: string }>(
      "insert into public.link_directories (name, owner_id) values ('Team', $1) returning id",
      [owner.id],
    );
    await db.query(
      "insert into public.directory_members (directory_id, user_email, role) values ($1, 'invited@example.com', 'viewer')",
      [rows[0]!.id],
    );
    await mail(owner.id, '192.0.2.9', 'Invited@Example.com');
    expect(await queued('Invited@Example.com')).toBe(1);
    // Another account cannot use that invitation.
    const other = await createUser(db);
    expect((await throttled(mail(other.id, '192.0.2.9', 'invited@example.com'))).status).toBe(403);

    await mail(owner.id, '192.0.2.9', owner.email);
    await db.query('update auth.users set email_confirmed_at = null where id = $1', [other.id]);
    expect((await throttled(mail(other.id, '192.0.2.9', other.email))).status).toBe(403);
  });

  it('queues 10 anonymous mails an hour per client address, and 200 from everyone', async () => {
    for (let i = 0; i < 10; i++) await mail(null, '203.0.113.60');
    expect((await throttled(mail(null, '203.0.113.60'))).status).toBe(429);
    await mail(null, '203.0.113.61');
    await db.query(
      `insert into private.throttle_attempts (bucket, subject)
       select 'mail_anonymous_all', '' from generate_series(1, 200)`,
    );
    expect((await throttled(mail(null, '203.0.113.62'))).status).toBe(429);
    // Mail the server sends on its own behalf (no sender, no client) is not limited here.
    await mail(null, null, 'someone@example.com');
  });

  it('purges attempts older than a day as new ones are recorded', async () => {
    await db.query(
      `insert into private.throttle_attempts (bucket, subject, attempted_at)
       select 'contact', 'old', now() - interval '2 days' from generate_series(1, 5)`,
    );
    const old = async () =>
      Number(
        (
          await db.query<{ n: string }>(
            "select count(*) as n from private.throttle_attempts where attempted_at < now() - interval '1 day'",
          )
        ).rows[0]?.n,
      );
    expect(await old()).toBe(5);
    // About one record in a hundred purges: 2,000 records miss it with a chance of 2e-9.
    await db.query("select private.throttle_record('test', 'purge') from generate_series(1, 2000)");
    expect(await old()).toBe(0);
  });

  it('enqueue_mail stays for the service role only', async () => {
    const user = await createUser(db);
    for (const actor of [anonymous, user]) {
      const error = await sqlError(
        as(db, actor, (sql) => sql.query("select public.enqueue_mail('a@example.com', 's', 'b', null, null)")),
      );
      expect(error.code).toBe('42501');
    }
  });
});
