/**
 * `npx tsx tests/bench/load-sql.ts`: the server's cost per call of the load run (load.ts), without
 * HTTP or concurrency: LOAD_SQL_USERS users (default 200), each a Pro account with a directory of
 * LOAD_SEEDED_LINKS links, take turns to do what a load client does (a push of 1 to 5 mutations,
 * mostly new links, some edits and favourites of its earlier ones; then pulls from its cursor
 * until done), LOAD_SQL_ROUNDS times each (default 5) after one untimed round, one call at a time
 * on one connection, as the local stack runs an RPC (its settings and role in one query, then the
 * call). Prints the mean, median and p95 of a push and of a pull. On PostgreSQL
 * (LOAD_SQL_DATABASE_URL, an empty database; else a migrated in-memory PGlite). With
 * pg_stat_statements loaded (`shared_preload_libraries`, `pg_stat_statements.track = all`), it
 * also prints the statements that cost most per push+pull, nested ones included; with
 * `track_functions = 'all'` (settable per database: `alter database … set track_functions = 'all'`),
 * each function's own time.
 * LOAD_SQL_SCHEMAS=1 applies supabase/schemas over the migrations first (to time an edit before
 * its migration is written).
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { openPglite, openPostgres, type Db } from '../../supabase/local/db.ts';
import { bootstrap, migrate } from '../../supabase/local/migrate.ts';
import { applySchemas } from '../../supabase/tools/schemas.ts';
import { LOAD_SEEDED_LINKS } from './load.ts';

const url = process.env.LOAD_SQL_DATABASE_URL;
const users = Number(process.env.LOAD_SQL_USERS) || 200;
const rounds = Number(process.env.LOAD_SQL_ROUNDS) || 5;

interface User {
  id: string;
  email: string;
  directoryId: string;
  made: string[];
  cursor: string | null;
}

/** One RPC as the stack's rest.ts makes it: the request's settings and role, then the call. */
async function call<T>(db: Db, user: User, text: string, params: unknown[]): Promise<T> {
  const claims = JSON.stringify({ sub: user.id, email: user.email, role: 'authenticated', aud: 'authenticated' });
  return db.transaction(async (tx) => {
    await tx.query(
      `select exists (select 1 from auth.users u where u.id::text = $2::text) as known,
              set_config('request.jwt.claims', $1, true), set_config('request.method', 'POST', true),
              set_config('role', 'authenticated', true)`,
      [claims, user.id],
    );
    const { rows } = await tx.query<{ r: T }>(text, params);
    return rows[0]!.r;
  });
}

async function seedUser(db: Db, n: number): Promise<User> {
  const id = randomUUID();
  const email = `load-sql-${n}-${id.slice(0, 8)}@example.com`;
  await db.query(
    `insert into auth.users (id, email, encrypted_password, email_confirmed_at, raw_user_meta_data)
     values ($1, $2, 'x', now(), '{}'::jsonb)`,
    [id, email],
  );
  await db.query(`update public.user_profiles set subscription_tier = 'pro' where id = $1`, [id]);
  const directoryId = randomUUID();
  await db.query('insert into public.link_directories (id, name, owner_id) values ($1, $2, $3)', [
    directoryId,
    'Load',
    id,
  ]);
  await db.query(
    `insert into public.saved_links (id, directory_id, url, title, owner_id, created_by)
     select gen_random_uuid(), $1, 'https://load.example/seed/' || $3::text || '/' || i, 'Seeded ' || i, $2, $2
     from generate_series(1, $4::int) i`,
    [directoryId, id, n, LOAD_SEEDED_LINKS],
  );
  return { id, email, directoryId, made: [], cursor: null };
}

/** load-clients.ts's mix: mostly new links, some edits and favourites of the client's earlier ones. */
function mutations(user: User, count: number) {
  return Array.from({ length: count }, (_, i) => {
    const id = randomUUID();
    const earlier = user.made.length > 0 ? user.made[Math.floor(Math.random() * user.made.length)] : undefined;
    if (earlier && i % 3 === 1)
      return { id, name: 'link.update', args: { id: earlier, title: `Edited ${id.slice(0, 8)}` } };
    if (earlier && i % 3 === 2)
      return { id, name: 'link.set_favorite', args: { id: earlier, value: Math.random() < 0.5 } };
    const link = randomUUID();
    user.made.push(link);
    const args = { id: link, directory_id: user.directoryId, url: `https://load.example/${link}`, title: 'Load link' };
    return { id, name: 'link.create', args };
  });
}

/** A load client's sync: one push, then pulls until the server has no more. */
async function sync(db: Db, user: User, push: number[], pull: number[]): Promise<void> {
  const batch = mutations(user, 1 + Math.floor(Math.random() * 5));
  let start = performance.now();
  const answer = await call<{ results: { status: string; message?: string }[] }>(
    db,
    user,
    'select public.sync_push($1::jsonb) as r',
    [JSON.stringify(batch)],
  );
  push.push(performance.now() - start);
  const refused = answer.results.find((result) => result.status !== 'applied');
  if (refused) throw new Error(`push refused: ${refused.message ?? 'no message'}`);
  for (let more = true; more;) {
    start = performance.now();
    const page = await call<{ cursor: string; more: boolean }>(db, user, 'select public.sync_pull($1, $2) as r', [
      user.cursor,
      5000,
    ]);
    pull.push(performance.now() - start);
    user.cursor = page.cursor;
    more = page.more;
  }
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const at = (values: number[], p: number) => sorted(values)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
const describe = (values: number[]) =>
  `mean ${(values.reduce((a, b) => a + b, 0) / values.length).toFixed(2)} ms, median ${at(values, 0.5).toFixed(2)}, ` +
  `p95 ${at(values, 0.95).toFixed(2)} (${values.length} calls)`;

/** Resets the counts; whether pg_stat_statements is there (the functions' own times need only track_functions). */
async function statements(db: Db): Promise<boolean> {
  await db.query('select pg_stat_reset()').catch(() => undefined);
  try {
    await db.exec('create extension if not exists pg_stat_statements');
    await db.query('select pg_stat_statements_reset()');
    return true;
  } catch {
    return false;
  }
}

interface Side {
  label: string;
  db: Db;
  users: User[];
  push: number[];
  pull: number[];
  stats: boolean;
}

async function prepare(label: string, db: Db, schemas: boolean): Promise<Side> {
  await bootstrap(db);
  await migrate(db);
  if (schemas) await applySchemas(db);
  const list: User[] = [];
  for (let n = 0; n < users; n += 1) list.push(await seedUser(db, n));
  await db.exec('analyze');
  return { label, db, users: list, push: [], pull: [], stats: false };
}

async function report(side: Side, seconds: number): Promise<void> {
  const { db, push } = side;
  console.log(`\n${side.label}: ${users} users × ${rounds} rounds (${seconds.toFixed(1)} s in all)`);
  console.log(`sync_push: ${describe(push)}`);
  console.log(`sync_pull: ${describe(side.pull)}`);
  if (side.stats) {
    const { rows } = await db.query<{ query: string; calls: string; per_sync: string; mean: string }>(
      `select left(regexp_replace(query, '\\s+', ' ', 'g'), 110) as query, calls::text,
              round((total_exec_time / $1)::numeric, 3)::text as per_sync,
              round(mean_exec_time::numeric, 3)::text as mean
       from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
       order by total_exec_time desc limit 30`,
      [push.length],
    );
    console.log('pg_stat_statements (ms per push+pull, nested statements included; mean ms per call):');
    for (const row of rows)
      console.log(`${row.per_sync.padStart(8)} ${row.calls.padStart(7)} ${row.mean.padStart(8)}  ${row.query}`);
  }
  // With track_functions = 'all': each function's own time (its statements' nested calls excluded).
  const { rows: functions } = await db.query<{ f: string; calls: string; per_sync: string; self: string }>(
    `select schemaname || '.' || funcname as f, calls::text, round((self_time / $1)::numeric, 3)::text as per_sync,
            round((self_time / calls)::numeric, 3)::text as self
     from pg_stat_user_functions where calls > 0 order by self_time desc limit 25`,
    [push.length],
  );
  console.log('functions (own ms per push+pull; calls; own ms per call):');
  for (const row of functions)
    console.log(`${row.per_sync.padStart(8)} ${row.calls.padStart(7)} ${row.self.padStart(8)}  ${row.f}`);
}

async function main(): Promise<void> {
  const schemas = process.env.LOAD_SQL_SCHEMAS === '1';
  const name = url ? 'PostgreSQL' : 'PGlite';
  const sides = [
    await prepare(`${name}${schemas ? ' + schemas' : ''}`, url ? openPostgres(url) : await openPglite(), schemas),
  ];
  // LOAD_SQL_COMPARE_URL: a second empty database with the migrations only (the state before an
  // edit of supabase/schemas); the two take turns, call by call, so both meet the same load.
  const compare = process.env.LOAD_SQL_COMPARE_URL;
  if (compare) sides.unshift(await prepare('PostgreSQL, migrations only', openPostgres(compare), false));
  // The untimed round: every user's first pull (from scratch) and the sessions' plans.
  for (const side of sides) for (const user of side.users) await sync(side.db, user, [], []);
  for (const side of sides) side.stats = await statements(side.db);
  const started = performance.now();
  for (let round = 0; round < rounds; round += 1)
    for (let n = 0; n < users; n += 1)
      for (const side of sides) await sync(side.db, side.users[n]!, side.push, side.pull);
  const seconds = (performance.now() - started) / 1000;
  // Each connection of a pool reports its counts when idle for 10 s at most.
  if (url || process.env.LOAD_SQL_COMPARE_URL) await new Promise((resolve) => setTimeout(resolve, 11_000));
  for (const side of sides) await report(side, seconds);
  for (const side of sides) await side.db.close();
}

await main();
