/**
 * `npx tsx tests/bench/sync-sql.ts`: the server's part of the push and first-pull bars, without a
 * browser: sync_push of 2 × 500 link.create mutations and a first sync_pull of 10,000 links in
 * pages of 5,000 (what the app asks for), timed on a migrated in-memory PGlite (what `npm start`
 * runs), or on PostgreSQL when SYNC_SQL_DATABASE_URL names an empty database. Prints the median of
 * SYNC_SQL_ROUNDS rounds (default 5). SYNC_SQL_SCHEMAS=1 applies supabase/schemas on top of the
 * migrations first (to time an edit before its migration is written). SYNC_SQL_EXTRA=n seeds n
 * links of another user first; with SYNC_SQL_WARM=1 one push runs before that seed, so the
 * session's plans are made on empty tables (as in the browser bench's long-lived stack), and
 * SYNC_SQL_AUTO_ANALYZE=1 then runs the stack's ANALYZE round (supabase/local/auto-analyze.ts).
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { openPglite, openPostgres, type Db } from '../../supabase/local/db.ts';
import { bootstrap, migrate } from '../../supabase/local/migrate.ts';
import { applySchemas } from '../../supabase/tools/schemas.ts';
import { analyzeChangedTables } from '../../supabase/local/auto-analyze.ts';

const rounds = Number(process.env.SYNC_SQL_ROUNDS) || 5;
const url = process.env.SYNC_SQL_DATABASE_URL;

async function asUser<T>(db: Db, id: string, email: string, text: string, params: unknown[]): Promise<T> {
  const claims = JSON.stringify({ sub: id, email, role: 'authenticated', aud: 'authenticated' });
  return db.transaction(async (tx) => {
    await tx.query("select set_config('request.jwt.claims', $1, true)", [claims]);
    await tx.exec('set local role authenticated');
    const { rows } = await tx.query<{ r: T }>(text, params);
    return rows[0]!.r;
  });
}

async function user(db: Db, tier: 'free' | 'pro'): Promise<{ id: string; email: string }> {
  const id = randomUUID();
  const email = `sync-sql-${id.slice(0, 8)}@example.com`;
  await db.query(
    `insert into auth.users (id, email, encrypted_password, email_confirmed_at, raw_user_meta_data)
     values ($1, $2, 'x', now(), '{}'::jsonb)`,
    [id, email],
  );
  await db.query('update public.user_profiles set subscription_tier = $2 where id = $1', [id, tier]);
  return { id, email };
}

/** CPU time of this process (PGlite runs in it): steadier than wall time on a shared machine. */
const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** One user pushes `batches` × 500 link.create into a new directory; wall and CPU time of the pushes. */
async function pushRound(db: Db, batches: number): Promise<{ ms: number; cpu: number }> {
  const pusher = await user(db, 'pro');
  const dir = randomUUID();
  await db.query('insert into public.link_directories (id, name, owner_id) values ($1, $2, $3)', [
    dir,
    'Push',
    pusher.id,
  ]);
  let ms = 0;
  let cpu = 0;
  for (let batch = 0; batch < batches; batch += 1) {
    const mutations = Array.from({ length: 500 }, (_, i) => ({
      id: randomUUID(),
      name: 'link.create',
      args: {
        id: randomUUID(),
        directory_id: dir,
        url: `https://example.com/push/${batch}/${i}`,
        title: `Pushed ${batch * 500 + i}`,
        tags: [],
        is_favorite: false,
      },
    }));
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    const answer = await asUser<{ results: { status: string }[] }>(
      db,
      pusher.id,
      pusher.email,
      'select public.sync_push($1::jsonb) as r',
      [JSON.stringify(mutations)],
    );
    ms += performance.now() - start;
    cpu += cpuMs(process.cpuUsage(cpuStart));
    if (answer.results.some((r) => r.status !== 'applied')) throw new Error('a mutation was rejected');
  }
  return { ms, cpu };
}

async function main(): Promise<void> {
  const db: Db = url ? openPostgres(url) : await openPglite();
  await bootstrap(db);
  await migrate(db);
  if (process.env.SYNC_SQL_SCHEMAS === '1') await applySchemas(db);
  const stats = process.env.SYNC_SQL_STATS === '1';
  if (stats) await db.exec("set track_functions = 'all'");

  // SYNC_SQL_WARM=1: one push of 500 while the tables are still empty, before the extra rows, as the
  // browser bench's long-lived server session does (its statements' plans are made on empty tables).
  if (process.env.SYNC_SQL_WARM === '1') await pushRound(db, 1);
  // SYNC_SQL_EXTRA=n: n links of another user first, as a bench run's database holds by its push part.
  const extra = Number(process.env.SYNC_SQL_EXTRA) || 0;
  if (extra > 0) {
    const other = await user(db, 'pro');
    const otherDir = randomUUID();
    await db.query('insert into public.link_directories (id, name, owner_id) values ($1, $2, $3)', [
      otherDir,
      'Other',
      other.id,
    ]);
    await db.query(
      `insert into public.saved_links (id, directory_id, url, title, owner_id, created_by)
       select gen_random_uuid(), $1, 'https://example.com/other/' || i, 'Other ' || i, $2, $2
       from generate_series(1, $3::int) i`,
      [otherDir, other.id, extra],
    );
  }

  // SYNC_SQL_AUTO_ANALYZE=1: what the local stack does on PGlite every 2 s (supabase/local/auto-analyze.ts).
  if (process.env.SYNC_SQL_AUTO_ANALYZE === '1') console.log('analyzed', await analyzeChangedTables(db));
  const pushTimes: number[] = [];
  const pushCpu: number[] = [];
  for (let round = 0; round < rounds + 1; round += 1) {
    const timed = await pushRound(db, 2);
    if (round === 0) continue;
    pushTimes.push(timed.ms);
    pushCpu.push(timed.cpu);
  }

  const puller = await user(db, 'pro');
  const bigDir = randomUUID();
  await db.query('insert into public.link_directories (id, name, owner_id) values ($1, $2, $3)', [
    bigDir,
    'Big',
    puller.id,
  ]);
  await db.query(
    `insert into public.saved_links (id, directory_id, url, title, notes, tags, owner_id, created_by, created_at, updated_at)
     select gen_random_uuid(), $1, 'https://example.com/page/' || i, 'Link number ' || i,
            case when i % 3 = 0 then 'note ' || i end,
            array['tag' || (i % 17), 'topic' || (i % 5)], $2, $2,
            now() - i * interval '1 second', now() - i * interval '1 second'
     from generate_series(1, 10000) i`,
    [bigDir, puller.id],
  );
  const pullTimes: number[] = [];
  const pullCpu: number[] = [];
  const pageTimes: number[] = [];
  for (let round = 0; round < rounds + 1; round += 1) {
    let cursor: string | null = null;
    let rows = 0;
    let ms = 0;
    let cpu = 0;
    for (;;) {
      const start = performance.now();
      const cpuStart = process.cpuUsage();
      const page: { cursor: string; more: boolean; changes: Record<string, unknown[]> } = await asUser(
        db,
        puller.id,
        puller.email,
        'select public.sync_pull($1, $2) as r',
        [cursor, 5000],
      );
      const took = performance.now() - start;
      ms += took;
      cpu += cpuMs(process.cpuUsage(cpuStart));
      if (round > 0) pageTimes.push(took);
      rows += Object.values(page.changes).reduce((n, list) => n + list.length, 0);
      cursor = page.cursor;
      if (!page.more) break;
    }
    if (rows < 10_002) throw new Error(`first pull: ${rows} rows`);
    if (round > 0) pullTimes.push(ms);
    if (round > 0) pullCpu.push(cpu);
  }
  const fmt = (values: number[]) =>
    `median ${median(values).toFixed(0)} ms [${values.map((v) => v.toFixed(0)).join(', ')}]`;
  console.log(`${url ? 'PostgreSQL' : 'PGlite'}${process.env.SYNC_SQL_SCHEMAS === '1' ? ' + schemas' : ''}`);
  console.log(`sync_push 2 × 500 link.create: wall ${fmt(pushTimes)}; CPU ${fmt(pushCpu)}`);
  console.log(`sync_pull 10,000 rows (pages of 5,000): wall ${fmt(pullTimes)}; CPU ${fmt(pullCpu)}`);
  console.log(`sync_pull per page: wall ${fmt(pageTimes)}`);
  if (stats) {
    await db.query('select pg_stat_force_next_flush()');
    const { rows } = await db.query<{ f: string; calls: number; total: number; self: number }>(
      `select schemaname || '.' || funcname as f, calls::int, round(total_time::numeric)::int as total,
              round(self_time::numeric)::int as self
       from pg_stat_user_functions order by self_time desc limit 25`,
    );
    console.table(rows);
  }
  await db.close();
}

await main();
