/**
 * Backups (docs/deploy.md, Backups). The embedded database: a real stack on a data directory of its
 * own, filled through the API (sign-up, the sync push), stopped, backed up with `npm run db:backup`'s
 * functions, restored into a fresh directory and served again: the same password signs in, and the
 * pull and every table are as they were. A file that is not a backup, and a directory that is not
 * empty, are refused with nothing changed. PostgreSQL (when DATABASE_URL is set): the docs' pg_dump,
 * createdb and pg_restore commands, run for real on a database of this run.
 */
import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { serverClient } from '../../supabase/functions/_shared/client.ts';
import { openPglite, openPostgres, type Db } from '../../supabase/local/db.ts';
import { startStack, type RunningStack } from '../../supabase/local/server.ts';
import { projectRoot } from '../../supabase/local/app.ts';
import { backupDataDir, BackupError, lockFileOf, main, restoreDataDir } from '../../supabase/tools/pglite-backup.ts';
import { confirmEmail } from '../support/confirm-email.ts';
import { postgresDb } from '../support/db.ts';
import { adminUrl, databaseUrlFor } from '../support/pg-url.ts';
import { TEST_JWT_SECRET } from '../support/test-keys.ts';

const run = promisify(execFile);
const PG_BIN = '/usr/lib/postgresql/15/bin';
/** The restored database's URL as docs/deploy.md writes it. */
const DOCS_RESTORED_URL = "'postgres://user:password@host:5432/linkboard_restored'";

/** The pg_dump, createdb and pg_restore lines of docs/deploy.md's Backups, PostgreSQL. */
function documentedPgCommands(): string[] {
  const text = readFileSync(join(projectRoot, 'docs', 'deploy.md'), 'utf8');
  const section = text.slice(text.indexOf('### PostgreSQL (`DATABASE_URL`)'), text.indexOf('### Checking a restore'));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((match) => (match[1] ?? '').split('\n'))
    .filter((line) => /^(pg_dump|createdb|pg_restore) /.test(line));
}
const PASSWORD = 'backup-password-1';

/** A stack on its own database, without the background rounds (nothing writes but the test). */
const startOn = (target: { dataDir: string } | { db: Db } | { databaseUrl: string }) =>
  startStack({
    ...target,
    port: 0,
    jwtSecret: TEST_JWT_SECRET,
    reminderTiming: false,
    linkCheckTiming: false,
    autoAnalyze: false,
  });

interface Filled {
  email: string;
  ids: { directory: string; links: string[]; event: string; poll: string };
}

/** Signs up (and confirms) an account and makes a directory, two links, an event and a poll through the push. */
async function fill(stack: RunningStack): Promise<Filled> {
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

type Rows = Record<string, Record<string, unknown>[]>;

/** Signs in with the password and pulls everything: the rows per table, sorted by id. */
async function signInAndPull(stack: RunningStack, email: string): Promise<Rows> {
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
async function tables(db: Db): Promise<Record<string, string>> {
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

const countOf = (sums: Record<string, string>, table: string) => Number(sums[table]?.split(' ')[0]);

/** Every file under dir with a hash of its content: equal listings mean nothing was written. */
function listing(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (path: string, prefix: string) => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) walk(full, `${prefix}${name}/`);
      else out[`${prefix}${name}`] = createHash('sha256').update(readFileSync(full)).digest('hex');
    }
  };
  if (existsSync(dir)) walk(dir, '');
  return out;
}

async function quietly<T>(fn: () => Promise<T>): Promise<T> {
  const error = console.error;
  const log = console.log;
  console.error = () => {};
  console.log = () => {};
  try {
    return await fn();
  } finally {
    console.error = error;
    console.log = log;
  }
}

describe('backups of the embedded database (npm run db:backup / db:restore)', () => {
  let tmp: string;
  let source: string;
  let file: string;
  let filled: Filled;
  let before: Rows;
  let sums: Record<string, string>;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'linkboard-backup-'));
    source = join(tmp, 'source', 'pglite');
    file = join(tmp, 'linkboard.tar.gz');
    mkdirSync(join(tmp, 'source'));
    const stack = await startOn({ dataDir: source });
    try {
      filled = await fill(stack);
      before = await signInAndPull(stack, filled.email);
      // While the stack holds the directory, a backup is refused (PGlite's postmaster.pid is there).
      expect(existsSync(lockFileOf(source))).toBe(true);
      await expect(backupDataDir(source, file)).rejects.toThrow(/is in use .*stop the stack first/);
      expect(existsSync(file)).toBe(false);
    } finally {
      await stack.close();
    }
    expect(existsSync(lockFileOf(source))).toBe(false);
    const db = await openPglite({ dataDir: source });
    sums = await tables(db);
    await db.close();
  }, 240_000);
  afterAll(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('backs up a stopped stack and restores it into a fresh directory: same sign-in, same rows', async () => {
    // What the backup must carry: the account, its profile, the rows pushed, the queued mail, the throttles.
    expect(countOf(sums, 'auth.users')).toBe(1);
    expect(countOf(sums, 'public.user_profiles')).toBe(1);
    expect(countOf(sums, 'public.saved_links')).toBe(2);
    expect(countOf(sums, 'public.outgoing_mail')).toBeGreaterThan(0);
    expect(countOf(sums, 'private.throttle_attempts')).toBeGreaterThan(0);
    expect(before.link_directories!.map((row) => row.id)).toEqual([filled.ids.directory]);
    expect(before.saved_links!.map((row) => row.id)).toEqual([...filled.ids.links].sort());
    expect(before.calendar_events!.map((row) => row.id)).toEqual([filled.ids.event]);
    expect(before.voting_posts!.map((row) => row.id)).toEqual([filled.ids.poll]);

    const backup = await backupDataDir(source, file);
    expect(backup.users).toBe(1);
    expect(readFileSync(file).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    // A second backup under the same name needs --force; a relative name is from where npm was run.
    await expect(backupDataDir(source, file)).rejects.toThrow(/exists: .*--force/);
    expect(await quietly(() => main(['backup', 'again.tar.gz', '--data-dir', source], { INIT_CWD: tmp }))).toBe(0);
    expect(existsSync(join(tmp, 'again.tar.gz'))).toBe(true);
    expect(await quietly(() => main(['backup', 'again.tar.gz', '--data-dir', source], { INIT_CWD: tmp }))).toBe(1);

    const restored = join(tmp, 'restored', 'pglite');
    const summary = await restoreDataDir(file, restored);
    expect(summary).toMatchObject({ users: 1, replaced: undefined });
    expect(existsSync(lockFileOf(restored))).toBe(false);
    expect(readdirSync(join(tmp, 'restored'))).toEqual(['pglite']);

    const db = await openPglite({ dataDir: restored });
    expect(await tables(db)).toEqual(sums);
    await db.close();

    const stack = await startOn({ dataDir: restored });
    try {
      expect(await signInAndPull(stack, filled.email)).toEqual(before);
    } finally {
      await stack.close();
    }
  }, 240_000);

  it('refuses a file that is not a backup and touches nothing', { timeout: 120_000 }, async () => {
    const target = join(tmp, 'untouched', 'pglite');
    mkdirSync(target, { recursive: true });
    writeFileSync(join(target, 'keep.txt'), 'mine');
    const was = listing(join(tmp, 'untouched'));
    const real = readFileSync(file);
    // A PostgreSQL data directory, but not a Linkboard database.
    const bare = await openPglite();
    const otherDatabase = new Uint8Array(await (await bare.pglite.dumpDataDir('gzip')).arrayBuffer());
    await bare.close();
    const fakes = {
      'text.tar.gz': gzipSync('not a database'),
      'cut.tar.gz': real.subarray(0, Math.floor(real.length / 2)),
      'random.bin': Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)),
      'other.tar.gz': otherDatabase,
    };
    for (const [name, bytes] of Object.entries(fakes)) {
      const fake = join(tmp, name);
      writeFileSync(fake, bytes);
      for (const args of [[], ['--force']]) {
        const code = await quietly(() => main(['restore', fake, '--data-dir', target, ...args], {}));
        expect(code, `${name} ${args.join(' ')}`).toBe(1);
      }
      await expect(restoreDataDir(fake, target, { force: true })).rejects.toThrow(
        new RegExp(`${name.replaceAll('.', '\\.')} is not a Linkboard backup .*nothing was changed`),
      );
      // Nor into an empty directory.
      await expect(restoreDataDir(fake, join(tmp, 'empty', 'pglite'))).rejects.toBeInstanceOf(BackupError);
    }
    // A backup of a newer Linkboard: a migration this checkout does not have.
    const newer = await openPglite({ loadDataDir: new Blob([real]) });
    await newer.exec(
      "insert into supabase_migrations.schema_migrations (version, name) values ('99990101000000', 'later')",
    );
    const newerFile = join(tmp, 'newer.tar.gz');
    writeFileSync(newerFile, new Uint8Array(await (await newer.pglite.dumpDataDir('gzip')).arrayBuffer()));
    await newer.close();
    await expect(restoreDataDir(newerFile, target, { force: true })).rejects.toThrow(
      /made by a newer Linkboard \(migration 99990101000000 is not in supabase\/migrations\).*nothing was changed/,
    );
    expect(listing(join(tmp, 'untouched'))).toEqual(was);
    expect(existsSync(join(tmp, 'empty'))).toBe(false);
    expect(readdirSync(tmp).filter((name) => name.includes('.restoring-'))).toEqual([]);
    // A missing file, and no file at all.
    expect(await quietly(() => main(['restore', join(tmp, 'missing.tar.gz'), '--data-dir', target], {}))).toBe(1);
    expect(await quietly(() => main(['restore'], {}))).toBe(2);
  });

  it('refuses to restore over a directory that is not empty without --force, and keeps the old one with it', async () => {
    const was = listing(source);
    expect(await quietly(() => main(['restore', file, '--data-dir', source], {}))).toBe(1);
    await expect(restoreDataDir(file, source)).rejects.toThrow(/is not empty: .*--force/);
    expect(listing(source)).toEqual(was);

    const { replaced } = await restoreDataDir(file, source, { force: true });
    expect(replaced).toMatch(/pglite\.replaced-\d{8}T\d{6}$/);
    expect(listing(replaced!)).toEqual(was);
    const db = await openPglite({ dataDir: source });
    expect(await tables(db)).toEqual(sums);
    await db.close();
  }, 120_000);

  it('says to use pg_dump when the stack runs on DATABASE_URL', async () => {
    const said: string[] = [];
    const error = console.error;
    console.error = (text: string) => said.push(text);
    try {
      expect(await main(['backup', join(tmp, 'other.tar.gz')], { DATABASE_URL: 'postgres://x@127.0.0.1/db' })).toBe(1);
    } finally {
      console.error = error;
    }
    expect(said.join('\n')).toMatch(/DATABASE_URL is set.*pg_dump \(docs\/deploy\.md, Backups\)/s);
  });
});

describe.runIf(process.env.DATABASE_URL)('backups of a PostgreSQL database (pg_dump -Fc, pg_restore)', () => {
  it('dumps, restores into a new database on the same cluster, and the same password finds the rows', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'linkboard-pgdump-'));
    const { db, url } = await postgresDb({ empty: false });
    // Named after this run's template, so the run's teardown drops it even if this test fails.
    const name = `${inject('pgTemplate').replace('lb_template_', 'lb_test_')}_restored_${randomUUID().slice(0, 8)}`;
    const restoredUrl = databaseUrlFor(url, name);
    try {
      const stack = await startOn({ db });
      const { filled, before } = await (async () => {
        try {
          const made = await fill(stack);
          return { filled: made, before: await signInAndPull(stack, made.email) };
        } finally {
          await stack.close();
        }
      })();
      const sums = await tables(db);
      expect(countOf(sums, 'public.outgoing_mail')).toBeGreaterThan(0);
      expect(countOf(sums, 'private.throttle_attempts')).toBeGreaterThan(0);

      // docs/deploy.md, Backups: the commands as written there, on this run's databases.
      const commands = documentedPgCommands();
      expect(commands.map((line) => line.split(' ')[0])).toEqual(['pg_dump', 'createdb', 'pg_restore']);
      for (const line of commands) {
        const command = line.replaceAll(DOCS_RESTORED_URL, `'${restoredUrl}'`).replaceAll('linkboard_restored', name);
        await run('bash', ['-c', command], {
          cwd: tmp,
          env: { ...process.env, DATABASE_URL: url, PATH: `${PG_BIN}:${process.env.PATH ?? ''}` },
        });
      }
      expect(existsSync(join(tmp, 'linkboard.dump'))).toBe(true);

      const restored = openPostgres(restoredUrl);
      try {
        expect(await tables(restored)).toEqual(sums);
      } finally {
        await restored.close();
      }
      const again = await startOn({ databaseUrl: restoredUrl });
      try {
        expect(await signInAndPull(again, filled.email)).toEqual(before);
      } finally {
        await again.close();
      }
    } finally {
      await db.close();
      const admin = openPostgres(adminUrl(url));
      await admin.exec(`drop database if exists ${name} with (force)`);
      await admin.close();
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 120_000);
});
