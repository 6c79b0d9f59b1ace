/**
 * Backups of the embedded database (PGlite in .data/pglite; docs/deploy.md, Backups):
 *
 *   npm run db:backup -- <file> [--data-dir <dir>] [--force]
 *   npm run db:restore -- <file> [--data-dir <dir>] [--force]
 *
 * A backup is PGlite's own dump of the data directory (`dumpDataDir`, a gzipped tar), taken with
 * the stack stopped. PGlite does not lock its data directory against a second process: it writes
 * `postmaster.pid` there when it opens it and removes it when it closes, and a second PGlite opens
 * the same directory anyway, which would corrupt it. So both commands refuse while that file is
 * there: a stack holds the directory, or one was not stopped cleanly (start it once and stop it with
 * Ctrl+C). A backup taken beside a running stack could miss what the stack has not written yet.
 *
 * Restore checks the file first (a tar of a PostgreSQL data directory, opened in memory: a Linkboard
 * database whose migrations this code knows) and touches nothing when it is not. It refuses a data
 * directory that is not empty unless --force, which moves the old one aside (`<dir>.replaced-<time>`)
 * rather than deleting it. The new directory is written beside the old and renamed into place once
 * it opens, so a failed restore leaves the old one as it was.
 *
 * Exit codes: 0 done, 1 refused or failed (the message says why), 2 usage.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  rmdirSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { openPglite } from '../local/db.ts';
import { listMigrations } from '../local/migrate.ts';

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where `npm start` keeps the embedded database (supabase/local/server.ts). */
export const DEFAULT_DATA_DIR = join(projectRoot, '.data', 'pglite');

/** What the commands refuse or fail with: said to the user as is, exit code 1. */
export class BackupError extends Error {}

/** What a backup holds, read from it. */
export interface BackupSummary {
  /** The newest migration applied in it. */
  migration: string;
  users: number;
  bytes: number;
}

/** The file PGlite keeps in a data directory while it has it open. */
export const lockFileOf = (dataDir: string) => join(dataDir, 'postmaster.pid');

function refuseInUse(dataDir: string): void {
  if (existsSync(lockFileOf(dataDir))) {
    throw new BackupError(
      `${dataDir} is in use (it holds postmaster.pid): stop the stack first (Ctrl+C in its terminal). ` +
        'If no stack runs, it was not stopped cleanly: start it once (npm run serve), stop it with Ctrl+C, and try again.',
    );
  }
}

const isEmptyDir = (dir: string) => !existsSync(dir) || readdirSync(dir).length === 0;

const stamp = () => new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');

async function summaryOf(db: Awaited<ReturnType<typeof openPglite>>, bytes: number): Promise<BackupSummary> {
  const { rows } = await db.query<{ migration: string | null; users: number }>(
    `select (select max(version) from supabase_migrations.schema_migrations) as migration,
            (select count(*)::int from auth.users) as users`,
  );
  return { migration: rows[0]?.migration ?? 'none', users: rows[0]?.users ?? 0, bytes };
}

/**
 * Writes a backup of the stopped embedded database in dataDir to file (a gzipped tar). Refuses while
 * a stack holds dataDir, when dataDir holds no database, and when file exists (unless force).
 */
export async function backupDataDir(
  dataDir: string,
  file: string,
  options: { force?: boolean } = {},
): Promise<BackupSummary> {
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    throw new BackupError(`${dataDir} holds no embedded database (no PG_VERSION): nothing to back up.`);
  }
  refuseInUse(dataDir);
  if (existsSync(file) && !options.force) {
    throw new BackupError(`${file} exists: name another file, or add --force to replace it.`);
  }
  if (!existsSync(dirname(resolve(file)))) {
    throw new BackupError(`${dirname(resolve(file))} does not exist: make the folder first, or name another file.`);
  }
  const db = await openPglite({ dataDir });
  let dump: Uint8Array;
  let summary: BackupSummary;
  try {
    summary = await summaryOf(db, 0);
    // Every change written to the data files, so the backup needs no recovery from the log.
    await db.exec('checkpoint');
    dump = new Uint8Array(await (await db.pglite.dumpDataDir('gzip')).arrayBuffer());
  } finally {
    await db.close();
  }
  // Written beside and renamed, so an interrupted backup never leaves half a file under the name.
  const partial = join(dirname(resolve(file)), `.${basename(file)}.partial-${process.pid}`);
  writeFileSync(partial, dump, { mode: 0o600 });
  renameSync(partial, file);
  return { ...summary, bytes: dump.byteLength };
}

/** The names in a tar archive (ustar headers), without a leading slash. */
function tarEntries(tar: Uint8Array): Map<string, Uint8Array> {
  const entries = new Map<string, Uint8Array>();
  const text = (from: number, length: number) =>
    Buffer.from(tar.subarray(from, from + length))
      .toString('latin1')
      .replace(/\0.*$/s, '');
  let offset = 0;
  while (offset + 512 <= tar.length) {
    const name = text(offset, 100);
    if (!name) break;
    if (text(offset + 257, 5) !== 'ustar') throw new BackupError('not a tar archive');
    const prefix = text(offset + 345, 155);
    const size = parseInt(text(offset + 124, 12).trim() || '0', 8);
    if (!Number.isFinite(size) || size < 0 || offset + 512 + size > tar.length) throw new BackupError('cut short');
    const path = (prefix ? `${prefix}/${name}` : name).replace(/^\/+/, '');
    entries.set(path, tar.subarray(offset + 512, offset + 512 + size));
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return entries;
}

/**
 * Reads a backup and checks it is one this code can restore: a tar (gzipped or not) of a PostgreSQL
 * data directory that opens as a Linkboard database whose migrations are all known here. Returns the
 * tar and what it holds; throws BackupError, having written nothing, when it is not.
 */
export async function checkBackup(file: string): Promise<{ tar: Uint8Array; summary: BackupSummary }> {
  if (!existsSync(file)) throw new BackupError(`${file} does not exist.`);
  const bytes = new Uint8Array(readFileSync(file));
  const notBackup = (why: string) =>
    new BackupError(`${file} is not a Linkboard backup (${why}); nothing was changed.`);
  let tar: Uint8Array;
  try {
    tar = bytes[0] === 0x1f && bytes[1] === 0x8b ? new Uint8Array(gunzipSync(bytes)) : bytes;
  } catch {
    throw notBackup('a damaged gzip file');
  }
  let entries: Map<string, Uint8Array>;
  try {
    entries = tarEntries(tar);
  } catch (error) {
    throw notBackup(error instanceof BackupError ? error.message : 'not a tar archive');
  }
  if (!entries.has('PG_VERSION') || !entries.has('global/pg_control')) {
    throw notBackup('no database directory in it');
  }
  let migrations: string[];
  let summary: BackupSummary;
  try {
    const db = await openPglite({ loadDataDir: new Blob([tar as Uint8Array<ArrayBuffer>]) });
    try {
      summary = await summaryOf(db, bytes.byteLength);
      migrations = (
        await db.query<{ version: string }>('select version from supabase_migrations.schema_migrations order by 1')
      ).rows.map((row) => row.version);
    } finally {
      await db.close();
    }
  } catch {
    const version = Buffer.from(entries.get('PG_VERSION') ?? [])
      .toString('latin1')
      .trim();
    throw notBackup(`its database (PostgreSQL ${version}) does not open here as a Linkboard database`);
  }
  const known = new Set(listMigrations().map((migration) => migration.version));
  const unknown = migrations.filter((version) => !known.has(version));
  if (unknown.length > 0) {
    throw new BackupError(
      `${file} was made by a newer Linkboard (migration ${unknown[0]} is not in supabase/migrations): ` +
        'update this checkout first; nothing was changed.',
    );
  }
  return { tar, summary };
}

/**
 * Restores file into dataDir. The file is checked before anything is written; a dataDir that is not
 * empty is refused unless force, and then moved aside (returned as `replaced`), never deleted.
 */
export async function restoreDataDir(
  file: string,
  dataDir: string,
  options: { force?: boolean } = {},
): Promise<BackupSummary & { replaced?: string }> {
  const { tar, summary } = await checkBackup(file);
  const occupied = !isEmptyDir(dataDir);
  if (occupied) {
    refuseInUse(dataDir);
    if (!options.force) {
      throw new BackupError(
        `${dataDir} is not empty: restore into an empty directory (--data-dir), or add --force to replace it ` +
          '(the old directory is kept beside it). Nothing was changed.',
      );
    }
  }
  const when = stamp();
  const staging = `${resolve(dataDir)}.restoring-${when}`;
  try {
    mkdirSync(dirname(staging), { recursive: true });
    const db = await openPglite({ dataDir: staging, loadDataDir: new Blob([tar as Uint8Array<ArrayBuffer>]) });
    try {
      await summaryOf(db, 0);
    } finally {
      await db.close();
    }
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw new BackupError(`The restore failed and nothing was changed: ${(error as Error).message}`);
  }
  let replaced: string | undefined;
  try {
    if (occupied) {
      replaced = `${resolve(dataDir)}.replaced-${when}`;
      renameSync(dataDir, replaced);
    } else if (existsSync(dataDir)) {
      rmdirSync(dataDir);
    }
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw new BackupError(`Could not move ${dataDir} aside, so nothing was changed: ${(error as Error).message}`);
  }
  renameSync(staging, dataDir);
  return { ...summary, replaced };
}

const USAGE = [
  'Usage: npm run db:backup -- <file> [--data-dir <dir>] [--force]',
  '       npm run db:restore -- <file> [--data-dir <dir>] [--force]',
  `The data directory is ${DEFAULT_DATA_DIR} unless --data-dir says otherwise. See docs/deploy.md, Backups.`,
].join('\n');

/** Runs `backup` or `restore` with its arguments; returns the exit code. */
export async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [command, ...rest] = argv;
  // npm runs a script in the project's root; paths are the caller's, from where npm was run.
  const here = env.INIT_CWD ?? process.cwd();
  let file: string | undefined;
  let dataDir = DEFAULT_DATA_DIR;
  let force = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    if (arg === '--force') force = true;
    else if (arg === '--data-dir' && rest[i + 1]) dataDir = resolve(here, rest[++i] as string);
    else if (arg.startsWith('--data-dir=')) dataDir = resolve(here, arg.slice('--data-dir='.length));
    else if (!arg.startsWith('-') && file === undefined) file = resolve(here, arg);
    else {
      console.error(`Unexpected argument ${arg}.\n${USAGE}`);
      return 2;
    }
  }
  if ((command !== 'backup' && command !== 'restore') || !file) {
    console.error(USAGE);
    return 2;
  }
  if (env.DATABASE_URL) {
    console.error(
      `DATABASE_URL is set: the stack runs on that PostgreSQL, not on the embedded database. ` +
        `Back it up with pg_dump (docs/deploy.md, Backups), or unset DATABASE_URL to ${command === 'backup' ? 'back up' : 'restore'} the embedded one.`,
    );
    return 1;
  }
  try {
    if (command === 'backup') {
      const summary = await backupDataDir(dataDir, file, { force });
      console.log(
        `Backed up ${dataDir} to ${file} (${summary.bytes} bytes; ${summary.users} accounts; migration ${summary.migration}).`,
      );
    } else {
      const summary = await restoreDataDir(file, dataDir, { force });
      console.log(
        `Restored ${file} into ${dataDir} (${summary.users} accounts; migration ${summary.migration}).` +
          (summary.replaced
            ? `\nThe old directory is now ${summary.replaced}: delete it once the restore checks out.`
            : '') +
          '\nStart the stack (npm start) and sign in to check it; it applies any newer migrations at start.',
      );
    }
    return 0;
  } catch (error) {
    if (error instanceof BackupError) {
      console.error(error.message);
      return 1;
    }
    console.error(`The ${command} failed: ${(error as Error).message}`);
    return 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await main(process.argv.slice(2), process.env);
}
