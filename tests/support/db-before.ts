/** A database as it was before one migration, for the tests of what that migration does to older rows. */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPglite, type Db } from '../../supabase/local/db.ts';
import { listMigrations, migrate } from '../../supabase/local/migrate.ts';

/**
 * Runs `fn` on a PGlite database migrated up to, not including, the migration named `migration`
 * (its file name after the timestamp); `migrate(db)` inside `fn` applies the rest. Closed after.
 */
export async function withDbBefore<T>(migration: string, fn: (db: Db) => Promise<T>): Promise<T> {
  const files = listMigrations();
  const at = files.findIndex((file) => file.name === migration);
  if (at <= 0) throw new Error(`No migration named ${migration} after the first.`);
  const dir = mkdtempSync(join(tmpdir(), 'linkboard-before-'));
  const db = await openPglite();
  try {
    for (const file of files.slice(0, at)) copyFileSync(file.path, join(dir, `${file.version}_${file.name}.sql`));
    await migrate(db, dir);
    return await fn(db);
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
