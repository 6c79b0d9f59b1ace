/**
 * `npm run bench`: the sync bars of design section 6, measured against the local stack on
 * loopback (startStack on port 0 over an in-memory PGlite) with the real supabase-js client and
 * fake-indexeddb. Not part of `npm test`. Prints a table and writes bench-results/bench.json.
 *
 *   push      1,000 queued mutations pushed by the engine (≤ 2 s)
 *   pull      first pull of 10,000 rows into a fresh Dexie db (≤ 2 s); its IndexedDB part
 *             ≤ 1.5 × a raw Dexie bulkPut of the same rows
 *   noop      a sync with nothing to do, median of 20 (≤ 50 ms)
 *   search    typing into the search of a directory of 10,000 links (≤ 50 ms per keystroke, median
 *             and p95): the app's matchesLink alone, then each keystroke until the real SearchInput
 *             and LinkCollection have committed the filtered links to a jsdom DOM (search-bench.tsx)
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { Dexie } from 'dexie';
import { serverClient } from '../../supabase/functions/_shared/client.ts';
import { openPglite } from '../../supabase/local/db.ts';
import { authLimitsFrom } from '../../supabase/local/auth-limits.ts';
import { migrate } from '../../supabase/local/migrate.ts';
import { startStack } from '../../supabase/local/server.ts';
import { projectRoot } from '../../supabase/local/app.ts';
import { openUserDb } from '../../src/data/db.ts';
import { mutate } from '../../src/data/mutate.ts';
import { newestFirst } from '../../src/data/queries/directories.ts';
import {
  createSupabaseTransport,
  type PullAnswer,
  type SyncTransport,
  type WireMutation,
} from '../../src/backend/sync-transport.ts';
import { SyncEngine } from '../../src/sync/engine.ts';
import type { MutationContext } from '../../src/data/mutation-context.ts';
import type { Tier } from '../../src/domain/plans.ts';
import { measureFilter, measureTyping, timings } from './search-bench.tsx';

interface Result {
  name: string;
  value: number;
  unit: 'ms' | 'ratio';
  bar: number;
  /** For bars per event (a keystroke): the 95th percentile, held to the bar as well. */
  p95?: number;
  note?: string;
}

const within = (r: Result) => r.value <= r.bar && (r.p95 === undefined || r.p95 <= r.bar);

const results: Result[] = [];
const log = (message: string) => console.log(`[bench] ${message}`);

/** Times the transport's calls, so the IndexedDB part of a sync can be told from the network part. */
class TimedTransport implements SyncTransport {
  pushMs = 0;
  pullMs = 0;
  pages: PullAnswer[] = [];
  keepPages = false;
  constructor(private readonly inner: SyncTransport) {}
  async push(mutations: WireMutation[]) {
    const start = performance.now();
    try {
      return await this.inner.push(mutations);
    } finally {
      this.pushMs += performance.now() - start;
    }
  }
  async pull(cursor: string | null, limit: number) {
    const start = performance.now();
    try {
      const page = await this.inner.pull(cursor, limit);
      if (this.keepPages) this.pages.push(page);
      return page;
    } finally {
      this.pullMs += performance.now() - start;
    }
  }
  reset() {
    this.pushMs = 0;
    this.pullMs = 0;
    this.pages = [];
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  log('migrating an in-memory PGlite');
  const db = await openPglite();
  await migrate(db);
  const stack = await startStack({
    db,
    port: 0,
    host: '127.0.0.1',
    jwtSecret: randomBytes(32).toString('base64url'),
    // The bench signs many users up from 127.0.0.1.
    authLimits: authLimitsFrom('{"signUp":{"max":100000},"signIn":{"max":100000}}'),
  });
  log(`local stack on ${stack.url}`);

  async function signUp(tier: Tier) {
    const client = serverClient(stack.url, stack.keys.anonKey, fetch);
    const email = `bench-${tier}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}@example.com`;
    const { data, error } = await client.auth.signUp({ email, password: 'password-123' });
    if (error || !data.user) throw new Error(`sign-up failed: ${error?.message}`);
    await db.query('update public.user_profiles set subscription_tier = $2 where id = $1', [data.user.id, tier]);
    const ctx: MutationContext = { userId: data.user.id, email, tier, now: () => new Date(), timeZone: 'UTC' };
    return { client, ctx };
  }

  function device(user: Awaited<ReturnType<typeof signUp>>) {
    const local = openUserDb(user.ctx.userId, { indexedDB: new IDBFactory(), IDBKeyRange });
    const transport = new TimedTransport(createSupabaseTransport(user.client));
    const engine = new SyncEngine({ db: local, transport, context: () => user.ctx, onStatus: () => {} });
    return { local, transport, engine };
  }

  try {
    // 1. Push 1,000 queued mutations.
    {
      const user = await signUp('pro');
      const d = device(user);
      await d.engine.sync();
      const dir = crypto.randomUUID();
      await mutate(d.local, 'directory.create', { id: dir, name: 'Bench' }, user.ctx);
      // Warm-up, not timed: a running stack has its PL/pgSQL plans cached (the first push of a
      // kind of mutation on a fresh connection costs about a second of planning in PGlite).
      for (let i = 0; i < 20; i += 1) {
        const id = crypto.randomUUID();
        await mutate(
          d.local,
          'link.create',
          { id, directory_id: dir, url: `https://w.test/${i}`, title: `W${i}` },
          user.ctx,
        );
        await mutate(d.local, 'link.delete', { id }, user.ctx);
      }
      await d.engine.sync();
      for (let i = 0; i < 1000; i += 1) {
        await mutate(
          d.local,
          'link.create',
          {
            id: crypto.randomUUID(),
            directory_id: dir,
            url: `https://example.com/${i}`,
            title: `Link ${i}`,
            tags: ['a'],
          },
          user.ctx,
        );
      }
      d.transport.reset();
      const start = performance.now();
      const outcome = await d.engine.sync();
      const total = performance.now() - start;
      const left = await d.local.outbox.count();
      if (outcome !== 'synced' || left !== 0) throw new Error(`push bench: ${outcome}, ${left} left`);
      results.push({
        name: 'push 1,000 queued mutations (whole sync)',
        value: total,
        unit: 'ms',
        bar: 2000,
        note: `push calls ${d.transport.pushMs.toFixed(0)} ms, pull ${d.transport.pullMs.toFixed(0)} ms`,
      });
      d.engine.stop();
      d.local.close();
    }

    // 2. First pull of 10,000 rows, against a raw bulkPut of the same rows.
    const user = await signUp('pro');
    const dir = crypto.randomUUID();
    await db.query(`insert into public.link_directories (id, name, owner_id) values ($1, 'Big', $2)`, [
      dir,
      user.ctx.userId,
    ]);
    log('seeding 10,000 links');
    await db.query(
      `insert into public.saved_links (id, directory_id, url, title, notes, tags, owner_id, created_by)
       select gen_random_uuid(), $1, 'https://example.com/page/' || i, 'Link number ' || i,
              case when i % 3 = 0 then 'note ' || i end,
              array['tag' || (i % 17), 'topic' || (i % 5)], $2, $2
       from generate_series(1, 10000) i`,
      [dir, user.ctx.userId],
    );
    const d = device(user);
    d.transport.keepPages = true;
    const start = performance.now();
    const outcome = await d.engine.sync();
    const pullTotal = performance.now() - start;
    const count = await d.local.saved_links.count();
    if (outcome !== 'synced' || count !== 10000) throw new Error(`pull bench: ${outcome}, ${count} links`);
    const idbPart = pullTotal - d.transport.pullMs - d.transport.pushMs;
    const rows = d.transport.pages.flatMap((page) => page.changes.saved_links ?? []);
    const rawDb = new Dexie('raw-bench', { indexedDB: new IDBFactory(), IDBKeyRange });
    rawDb.version(1).stores({ saved_links: 'id, directory_id, owner_id' });
    await rawDb.open();
    const rawStart = performance.now();
    await rawDb.table('saved_links').bulkPut(rows);
    const raw = performance.now() - rawStart;
    rawDb.close();
    results.push({
      name: 'first pull of 10,000 rows',
      value: pullTotal,
      unit: 'ms',
      bar: 2000,
      note: `${d.transport.pages.length} pages; server+HTTP ${d.transport.pullMs.toFixed(0)} ms, IndexedDB ${idbPart.toFixed(0)} ms`,
    });
    results.push({
      name: 'first pull: IndexedDB part / raw bulkPut',
      value: idbPart / raw,
      unit: 'ratio',
      bar: 1.5,
      note: `raw Dexie bulkPut of the same ${rows.length} rows: ${raw.toFixed(0)} ms`,
    });

    // 3. A sync with nothing to do.
    const noop: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const t = performance.now();
      await d.engine.sync();
      noop.push(performance.now() - t);
    }
    results.push({ name: 'sync with nothing to do (median of 20)', value: timings(noop).median, unit: 'ms', bar: 50 });

    // 4. Search in a directory of 10,000 links, per keystroke, on the app's own code.
    const links = newestFirst(await d.local.saved_links.where('directory_id').equals(dir).toArray());
    const typed = 'number 4242';
    const filter = measureFilter(links, typed, 5);
    results.push({
      name: 'search 10,000 links: matchesLink per keystroke (median)',
      value: filter.median,
      p95: filter.p95,
      unit: 'ms',
      bar: 50,
      note: `p95 ${filter.p95.toFixed(2)} ms over ${filter.samples.length} keystrokes`,
    });
    log('typing into the rendered links, grid then list');
    for (const view of ['grid', 'list'] as const) {
      const typing = await measureTyping(links, view, typed, 3);
      results.push({
        name: `search 10,000 links: keystroke to committed DOM, ${view} (median)`,
        value: typing.median,
        p95: typing.p95,
        unit: 'ms',
        bar: 50,
        note: `p95 ${typing.p95.toFixed(1)} ms over ${typing.samples.length} keystrokes; react-dom in jsdom; at most ${typing.mounted} links in the DOM`,
      });
    }
    d.engine.stop();
    d.local.close();
  } finally {
    await stack.close();
    await db.close();
  }

  const rowsOut = results.map((r) => ({
    what: r.name,
    measured: r.unit === 'ratio' ? `${r.value.toFixed(2)}×` : `${r.value.toFixed(1)} ms`,
    bar: r.unit === 'ratio' ? `≤ ${r.bar}×` : `≤ ${r.bar} ms`,
    ok: within(r) ? 'yes' : 'NO',
    note: r.note ?? '',
  }));
  console.table(rowsOut);
  const out = join(projectRoot, 'bench-results');
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(out, 'bench.json'),
    `${JSON.stringify(
      {
        at: new Date().toISOString(),
        node: process.version,
        database: 'PGlite in memory',
        transport: 'supabase-js over loopback HTTP',
        indexedDB: 'fake-indexeddb',
        results: results.map((r) => ({ ...r, ok: within(r) })),
      },
      null,
      2,
    )}\n`,
  );
  log(`wrote bench-results/bench.json in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const missed = results.filter((result) => !within(result)).length;
  // CI's quick pass reports the table without failing on a missed bar (BENCH_REPORT_ONLY=1); a crash still fails.
  if (missed && process.env.BENCH_REPORT_ONLY) log(`${missed} bar(s) not met (report only)`);
  else if (missed) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
