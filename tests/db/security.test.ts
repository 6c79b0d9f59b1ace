import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { anonymous, as, createUser, dbKinds, freshDb, insertRow, sqlError, type Actor } from '../support/db.ts';

const serverTables = ['directory_secrets', 'contact_messages', 'outgoing_mail', 'billing_customers'];
const syncedTables = [
  'user_profiles',
  'link_directories',
  'saved_links',
  'directory_members',
  'calendar_events',
  'voting_posts',
  'user_votes',
];

describe.each(dbKinds)('database security (%s)', (kind) => {
  let db: Db;
  let user: Actor;

  beforeAll(async () => {
    db = await freshDb(kind);
    user = await createUser(db);
  });
  afterAll(() => db.close());

  it('has row-level security on every table in schema public', async () => {
    const { rows } = await db.query<{ relname: string; relrowsecurity: boolean }>(
      `select c.relname, c.relrowsecurity from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind in ('r', 'p') order by c.relname`,
    );
    expect(rows.map((row) => row.relname)).toEqual(expect.arrayContaining([...serverTables, ...syncedTables]));
    expect(rows.filter((row) => !row.relrowsecurity)).toEqual([]);
  });

  it('gives the synced tables a txid index and the sync columns', async () => {
    for (const table of syncedTables) {
      const { rows } = await db.query<{ column_name: string }>(
        `select column_name from information_schema.columns where table_schema = 'public' and table_name = $1`,
        [table],
      );
      const columns = rows.map((row) => row.column_name);
      expect(columns).toEqual(expect.arrayContaining(['id', 'created_at', 'updated_at', 'deleted_at', 'txid']));
      const index = await db.query(`select 1 from pg_indexes where tablename = $1 and indexdef like '%(txid)%'`, [
        table,
      ]);
      expect(index.rows, table).toHaveLength(1);
    }
  });

  for (const table of serverTables) {
    it(`refuses ${table} to anon and authenticated`, async () => {
      for (const actor of [anonymous, user]) {
        const error = await sqlError(as(db, actor, (sql) => sql.query(`select * from public.${table}`)));
        expect(error.code).toBe('42501');
        const insert = await sqlError(as(db, actor, (sql) => sql.query(`delete from public.${table}`)));
        expect(insert.code).toBe('42501');
      }
    });
  }

  it('lets no client role truncate a synced table (TRUNCATE bypasses RLS)', async () => {
    for (const table of syncedTables) {
      const error = await sqlError(as(db, user, (sql) => sql.query(`truncate public.${table} cascade`)));
      expect(error.code, table).toBe('42501');
    }
  });

  it('lets anon execute only the public RPCs', async () => {
    const { rows } = await db.query<{ proname: string }>(
      `select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname = 'public' and has_function_privilege('anon', p.oid, 'execute') order by 1`,
    );
    expect(rows.map((row) => row.proname)).toEqual([
      'get_my_profile',
      'get_public_directory',
      'get_public_profile',
      'submit_contact_message',
      'username_available',
    ]);
  });

  it('lets no client role execute a trigger function or an internal helper', async () => {
    const { rows } = await db.query<{ proname: string }>(
      `select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname in ('public', 'private') and p.prorettype = 'trigger'::regtype
         and (has_function_privilege('anon', p.oid, 'execute') or has_function_privilege('authenticated', p.oid, 'execute'))`,
    );
    expect(rows).toEqual([]);
    const internal = ['tier_of(uuid)', 'month_start_for(uuid)', 'lock_account(uuid)', 'sanitize_username(text)'];
    for (const fn of internal) {
      const { rows: granted } = await db.query<{ anon: boolean; authenticated: boolean }>(
        `select has_function_privilege('anon', $1, 'execute') as anon,
                has_function_privilege('authenticated', $1, 'execute') as authenticated`,
        [`public.${fn}`],
      );
      expect(granted[0], fn).toEqual({ anon: false, authenticated: false });
    }
  });

  it('lets authenticated execute the policy helpers in private and the signed-in RPCs in public', async () => {
    const fns = [
      'private.is_directory_owner(uuid)',
      'private.can_view_directory(uuid)',
      'private.can_edit_directory(uuid)',
      'private.viewable_directory_ids()',
      'private.can_see_post(uuid)',
      'private.confirmed_email()',
      'private.set_directory_password(uuid, text)',
      'public.claim_username(text)',
      'public.update_my_profile(text, text, text, text)',
    ];
    for (const fn of fns) {
      const { rows } = await db.query<{ ok: boolean }>(
        `select has_function_privilege('authenticated', $1, 'execute') as ok`,
        [fn],
      );
      expect(rows[0]?.ok, fn).toBe(true);
    }
  });

  it('refuses the throttles, the mail queue and the helpers no policy needs to a signed-in user', async () => {
    const event = await insertRow<{ id: string }>(db, 'calendar_events', {
      owner_id: user.id,
      title: 'Mine',
      starts_at: '2026-12-31T22:59:00+00:00',
      ends_at: '2026-12-31T23:59:00+00:00',
    });
    const calls = [
      `select private.throttle_record('directory_password', '${event.id} 192.0.2.1')`,
      `select private.throttle('directory_password_all', '${event.id}', 1, interval '1 hour')`,
      `select private.throttle_wait('invite_mail', '${user.id}', 50, interval '1 hour')`,
      `select private.queue_event_mail('${event.id}')`,
      `select private.queue_series_mail('${event.id}')`,
      `select private.queue_invitation_mail('${event.id}')`,
      `select private.is_directory_member('${event.id}')`,
      'select private.my_tier()',
      'select private.client_address()',
    ];
    for (const call of calls) {
      const error = await sqlError(as(db, user, (sql) => sql.query(call)));
      expect(error.code, call).toBe('42501');
    }
    const { rows } = await db.query<{ n: number }>(
      `select (select count(*) from private.throttle_attempts)::int + (select count(*) from public.outgoing_mail)::int as n`,
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('pins search_path on every SECURITY DEFINER function', async () => {
    const { rows } = await db.query<{ proname: string }>(
      `select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname in ('public', 'private') and p.prosecdef
         and not coalesce(p.proconfig @> array['search_path=""'], false)`,
    );
    expect(rows).toEqual([]);
  });

  it('runs enqueue_mail for service_role only', async () => {
    for (const actor of [anonymous, user]) {
      const error = await sqlError(
        as(db, actor, (sql) => sql.query(`select public.enqueue_mail('a@example.com', 's', 'b', null)`)),
      );
      expect(error.code).toBe('42501');
    }
    const id = await as(db, { role: 'service_role' }, async (sql) => {
      const { rows } = await sql.query<{ id: string }>(
        `select public.enqueue_mail('to@example.com', 'Hello', 'Body', $1, null, true) as id`,
        [user.id],
      );
      return rows[0]?.id;
    });
    const { rows } = await db.query(
      'select to_address, subject, body, sender_id from public.outgoing_mail where id = $1',
      [id],
    );
    expect(rows).toEqual([{ to_address: 'to@example.com', subject: 'Hello', body: 'Body', sender_id: user.id }]);
  });
});
