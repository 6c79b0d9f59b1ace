/**
 * Applies the bootstrap (what hosted Supabase provides) and then every migration in
 * supabase/migrations in order, recording each in supabase_migrations.schema_migrations
 * as the Supabase CLI does. A database whose history is not a prefix of the files is refused.
 */
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
  const files = listMigrations(dir);
  const { rows } = await db.query<{ version: string }>(
    'select version from supabase_migrations.schema_migrations order by version',
  );
  const applied = rows.map((row) => row.version);
  applied.forEach((version, index) => {
    if (files[index]?.version !== version) {
      throw new MigrationHistoryError(
        `Migration history does not match supabase/migrations: the database has ${version} ` +
          `where the files have ${files[index]?.version ?? 'nothing'}. Refusing to migrate.`,
      );
    }
  });
  const pending = files.slice(applied.length);
  for (const file of pending) {
    const sql = readFileSync(file.path, 'utf8');
    await db.transaction(async (tx) => {
      await tx.exec(sql);
      await tx.query('insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)', [
        file.version,
        file.name,
      ]);
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
