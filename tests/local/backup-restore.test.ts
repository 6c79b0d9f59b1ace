/**
 * Backups of the embedded database (docs/deploy.md, Backups): a real stack on a data directory of
 * its own, filled through the API (sign-up, the sync push), stopped, backed up with `npm run
 * db:backup`'s functions, restored into a fresh directory and served again: the same password signs
 * in, and the pull and every table are as they were. A file that is not a backup, and a directory
 * that is not empty, are refused with nothing changed. PostgreSQL's backups are
 * backup-restore-postgres.test.ts.
 */
import { createHash } from 'node:crypto';
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
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../supabase/local/db.ts';
import { backupDataDir, BackupError, lockFileOf, main, restoreDataDir } from '../../supabase/tools/pglite-backup.ts';
import { countOf, fill, signInAndPull, startOn, tables, type Filled, type Rows } from '../support/backup-stack.ts';

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
