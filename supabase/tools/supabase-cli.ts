/**
 * The Supabase CLI (the pinned devDependency `supabase`) run as a deployment runs it:
 * `supabase db push --db-url ...` applies supabase/migrations and records each in
 * supabase_migrations.schema_migrations. The tests' PostgreSQL template is made this way
 * (tests/support/global-setup.ts), so the database tests run on the schema hosted Supabase gets.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder that holds `supabase/` (the CLI's --workdir). */
export const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const cliScript = join(dirname(createRequire(import.meta.url).resolve('supabase/package.json')), 'dist', 'supabase.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export class SupabaseCliError extends Error {}

/**
 * The URL as the CLI wants it: `postgresql://`, and `sslmode=disable` for a server on this machine
 * that was given none (the CLI insists on TLS otherwise, which a local cluster does not offer).
 */
export function cliDatabaseUrl(url: string): string {
  const parsed = new URL(url);
  parsed.protocol = 'postgresql:';
  const local = ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname);
  if (local && !parsed.searchParams.has('sslmode')) parsed.searchParams.set('sslmode', 'disable');
  return parsed.toString();
}

/** Runs the CLI with args; never prompts (--yes), sends no telemetry. Resolves with its exit code. */
export function supabaseCli(args: string[], options: { workdir?: string } = {}): Promise<CliResult> {
  const workdir = options.workdir ?? projectRoot;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [cliScript, ...args, '--workdir', workdir, '--yes'],
      {
        cwd: workdir,
        env: { ...process.env, SUPABASE_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' },
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') reject(error);
        else resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
      },
    );
  });
}

/** Runs the CLI with `--output-format json` and answers its JSON; throws on a non-zero exit. */
async function cliJson<T>(args: string[], options: { workdir?: string }): Promise<T> {
  const result = await supabaseCli([...args, '--output-format', 'json'], options);
  if (result.code !== 0) {
    throw new SupabaseCliError(
      `supabase ${args.slice(0, 2).join(' ')} failed (exit ${result.code}): ${(result.stderr + result.stdout).trim()}`,
    );
  }
  return JSON.parse(result.stdout) as T;
}

export interface PushAnswer {
  upToDate: boolean;
  /** The files it applied (or, with dryRun, would apply), e.g. `20261122000100_schema.sql`. */
  migrations: string[];
}

/**
 * `supabase db push --db-url url`: applies the migrations of workdir/supabase/migrations that the
 * database has not recorded, each in its own transaction with its history row.
 */
export async function pushMigrations(
  url: string,
  options: { workdir?: string; dryRun?: boolean } = {},
): Promise<PushAnswer> {
  const args = ['db', 'push', '--db-url', cliDatabaseUrl(url)];
  if (options.dryRun) args.push('--dry-run');
  const { upToDate, migrations } = await cliJson<PushAnswer>(args, options);
  return { upToDate, migrations };
}

export interface ListedMigration {
  /** The version as the files have it ('' when the database has one the files lack). */
  local: string;
  /** The version as the database records it ('' when not applied). */
  remote: string;
}

/** `supabase migration list --db-url url`: each version, in the files and in the database. */
export async function listPushedMigrations(
  url: string,
  options: { workdir?: string } = {},
): Promise<ListedMigration[]> {
  const { migrations } = await cliJson<{ migrations: ListedMigration[] }>(
    ['migration', 'list', '--db-url', cliDatabaseUrl(url)],
    options,
  );
  return migrations.map(({ local, remote }) => ({ local, remote }));
}
