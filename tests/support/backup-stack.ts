/**
 * The shared setup of the backup tests (tests/local/backup-restore*.test.ts; docs/deploy.md, Backups):
 * a real stack on a database of its own, filled through the API (sign-up, the sync push), the pull
 * as the account sees it, and a checksum of every table, to compare before a backup and after its
 * restore.
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { expect } from 'vitest';
import { serverClient } from '../../supabase/functions/_shared/client.ts';
import type { Db } from '../../supabase/local/db.ts';
import { startStack, type RunningStack } from '../../supabase/local/server.ts';
import { confirmEmail } from './confirm-email.ts';
import { TEST_JWT_SECRET } from './test-keys.ts';

const PASSWORD = 'backup-password-1';

/** A stack on its own database, without the background rounds (nothing writes but the test). */
export const startOn = (target: { dataDir: string } | { db: Db } | { databaseUrl: string }) =>
  startStack({
    ...target,
    port: 0,
    jwtSecret: TEST_JWT_SECRET,
    reminderTiming: false,
    linkCheckTiming: false,
    autoAnalyze: false,
  });

export interface Filled {
  email: string;
  ids: { directory: string; links: string[]; event: string; poll: string };
}

/** Signs up (and confirms) an account and makes a directory, two links, an event and a poll through the push. */
export async function fill(stack: RunningStack): Promise<Filled> {
  const client = serverClient(stack.url, stack.keys.anonKey, fetch);
  const email = `backup-${randomUUID().slice(0, 8)}@example.com`;
  const { error } = await client.auth.signUp({ email, password: PASSWORD });
  expect(error).toBeNull();
  await confirmEmail(fetch, stack.url, email);
  const ids = { directory: randomUUID(), links: [randomUUID(), randomUUID()], event: randomUUID(), poll: randomUUID() };
  const mutations = [
    ['directory.create', { id: ids.directory, name: 'Kept', color: 'green' }],
    ['link.create', { id: ids.links[0], directory_id: ids.directory, url: 'https://a.example/', title: 'A' }],
    ['link.create', { id: ids.links[1], directory_id: ids.directory, url: 'https://b.example/', title: 'B' }],
    [
      'event.create',
      { id: ids.event, title: 'Dentist', starts_at: '2031-02-01T10:00:00Z', ends_at: '2031-02-01T11:00:00Z' },
    ],
    ['poll.create', { id: ids.poll, title: 'Lunch?', options: ['Pizza', 'Sushi'] }],
  ].map(([name, args]) => ({ id: randomUUID(), name, args }));
  const { data, error: pushError } = await client.rpc('sync_push', { p_mutations: mutations });
  expect(pushError).toBeNull();
  expect((data as { results: { status: string }[] }).results.map((r) => r.status)).toEqual(
    mutations.map(() => 'applied'),
  );
  return { email, ids };
}

export type Rows = Record<string, Record<string, unknown>[]>;

/** Signs in with the password and pulls everything: the rows per table, sorted by id. */
export async function signInAndPull(stack: RunningStack, email: string): Promise<Rows> {
  const client: SupabaseClient = serverClient(stack.url, stack.keys.anonKey, fetch);
  const { error } = await client.auth.signInWithPassword({ email, password: PASSWORD });
  expect(error).toBeNull();
  const rows: Rows = {};
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    const { data, error: pullError } = await client.rpc('sync_pull', { p_cursor: cursor, p_limit: 1000 });
    expect(pullError).toBeNull();
    const answer = data as { cursor: string; more: boolean; changes: Rows };
    for (const [table, list] of Object.entries(answer.changes)) (rows[table] ??= []).push(...list);
    cursor = answer.cursor;
    if (!answer.more) break;
  }
  for (const list of Object.values(rows)) list.sort((a, b) => String(a.id).localeCompare(String(b.id)));
  return rows;
}

/** A checksum and row count of every table of the app's schemas, and the counts that matter named. */
export async function tables(db: Db): Promise<Record<string, string>> {
  const { rows: names } = await db.query<{ name: string }>(
    `select format('%I.%I', table_schema, table_name) as name from information_schema.tables
     where table_schema in ('auth', 'public', 'private', 'supabase_migrations') and table_type = 'BASE TABLE'
       -- rewritten from the listening address at every start (docs/deploy.md, The local stack)
       and (table_schema, table_name) <> ('private', 'settings')
     order by 1`,
  );
  const { rows } = await db.query<{ name: string; sum: string }>(
    names
      .map(
        ({ name }) =>
          `select '${name}' as name, count(*) || ' ' || coalesce(md5(string_agg(t::text, ',' order by t::text)), '') as sum from ${name} t`,
      )
      .join(' union all '),
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.sum]));
}

export const countOf = (sums: Record<string, string>, table: string) => Number(sums[table]?.split(' ')[0]);
