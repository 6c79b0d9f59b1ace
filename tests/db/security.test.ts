import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { anonymous, as, createUser, dbKinds, freshDb, sqlError, type Actor } from '../support/db.ts';

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
    expect(rows.map((row) => row.relname).sort()).toEqual([...serverTables, ...syncedTables].sort());
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

  it('lets authenticated execute no trigger or internal function', async () => {
    const { rows } = await db.query<{ proname: string }>(
      `select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname = 'public' and p.prosecdef and has_function_privilege('authenticated', p.oid, 'execute')
       order by 1`,
    );
    expect(rows.map((row) => row.proname)).toEqual([
      'can_edit_directory',
      'can_see_post',
      'can_view_directory',
      'claim_username',
      'get_my_profile',
      'get_public_directory',
      'get_public_profile',
      'is_directory_member',
      'is_directory_owner',
      'my_tier',
      'set_directory_password',
      'submit_contact_message',
      'update_my_profile',
      'username_available',
      'viewable_directory_ids',
    ]);
  });

  it('pins search_path on every SECURITY DEFINER function', async () => {
    const { rows } = await db.query<{ proname: string }>(
      `select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname = 'public' and p.prosecdef
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
        `select public.enqueue_mail('to@example.com', 'Hello', 'Body', $1) as id`,
        [user.id],
      );
      return rows[0]?.id;
    });
    const { rows } = await db.query('select to_address, subject, body, sender_id from public.outgoing_mail where id = $1', [
      id,
    ]);
    expect(rows).toEqual([{ to_address: 'to@example.com', subject: 'Hello', body: 'Body', sender_id: user.id }]);
  });
});
