/**
 * Applies the bootstrap (what hosted Supabase provides) and then every migration in
 * supabase/migrations in order, recording each in supabase_migrations.schema_migrations
 * as the Supabase CLI does, with a SHA-256 checksum of each file. A database whose history is not
 * a prefix of the files, or whose applied migration was edited since, is refused: a migration
 * once applied never changes (a change is a new migration, docs/architecture.md). The CLI's
 * `supabase db push` keeps the same table, so each takes over a database the other migrated.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './db.ts';

const here = dirname(fileURLToPath(import.meta.url));
export const migrationsDir = join(here, '..', 'migrations');

export interface MigrationFile {
  version: string;
  name: string;
  path: string;
}

export class MigrationHistoryError extends Error {}

/** An applied migration's file no longer has the content that was applied. */
export class MigrationChecksumError extends MigrationHistoryError {}

/** SHA-256 of a migration's text (line endings normalized, so a CRLF checkout is the same file). */
export function migrationChecksum(sql: string): string {
  return createHash('sha256').update(sql.replace(/\r\n/g, '\n'), 'utf8').digest('hex');
}

export function listMigrations(dir = migrationsDir): MigrationFile[] {
  return readdirSync(dir)
    .filter((file) => /^\d+_.+\.sql$/.test(file))
    .sort()
    .map((file) => {
      const [, version = '', name = ''] = /^(\d+)_(.+)\.sql$/.exec(file) ?? [];
      return { version, name, path: join(dir, file) };
    });
}

export async function bootstrap(db: Db): Promise<void> {
  await db.exec(readFileSync(join(here, 'bootstrap.sql'), 'utf8'));
}

/** Returns the versions it applied. */
export async function migrate(db: Db, dir = migrationsDir): Promise<string[]> {
  await bootstrap(db);
  await db.exec('alter table supabase_migrations.schema_migrations add column if not exists checksum text');
  const files = listMigrations(dir);
  const { rows } = await db.query<{ version: string; checksum: string | null }>(
    'select version, checksum from supabase_migrations.schema_migrations order by version',
  );
  rows.forEach(({ version }, index) => {
    if (files[index]?.version !== version) {
      throw new MigrationHistoryError(
        `Migration history does not match supabase/migrations: the database has ${version} ` +
          `where the files have ${files[index]?.version ?? 'nothing'}. Refusing to migrate.`,
      );
    }
  });
  const backfill: { version: string; checksum: string }[] = [];
  rows.forEach(({ version, checksum }, index) => {
    const file = files[index] as MigrationFile;
    const current = migrationChecksum(readFileSync(file.path, 'utf8'));
    // Applied before checksums were recorded, or by `supabase db push` (which records none): the file
    // as it is now is taken as the one applied.
    if (checksum === null) backfill.push({ version, checksum: current });
    else if (checksum !== current) {
      throw new MigrationChecksumError(
        `supabase/migrations/${version}_${file.name}.sql was edited after this database applied it ` +
          `(checksum ${checksum.slice(0, 12)}, the file now ${current.slice(0, 12)}). An applied migration ` +
          'never changes: restore the file and put the change in a new migration. Refusing to start.',
      );
    }
  });
  for (const { version, checksum } of backfill) {
    await db.query('update supabase_migrations.schema_migrations set checksum = $2 where version = $1', [
      version,
      checksum,
    ]);
  }
  const pending = files.slice(rows.length);
  for (const file of pending) {
    const sql = readFileSync(file.path, 'utf8');
    await db.transaction(async (tx) => {
      await tx.exec(sql);
      await tx.query(
        'insert into supabase_migrations.schema_migrations (version, name, checksum) values ($1, $2, $3)',
        [file.version, file.name, migrationChecksum(sql)],
      );
    });
  }
  return pending.map((file) => file.version);
}

/**
 * Records the app's public origin for the database (private.settings 'site_url'): the server's
 * mail, such as the invitation mail, links to it (docs/deploy.md).
 */
export async function setSiteUrl(db: Db, siteUrl: string): Promise<void> {
  await db.query(
    `insert into private.settings (key, value) values ('site_url', $1)
     on conflict (key) do update set value = excluded.value`,
    [new URL(siteUrl).origin],
  );
}
