/**
 * Migrates one database per test run; each test file then starts from a copy of it
 * (a PGlite data dump, or a real PostgreSQL database created from a template).
 * PGlite is migrated by supabase/local/migrate.ts, as the local stack does. The PostgreSQL
 * template is migrated as a hosted deployment is (docs/deploy.md): supabase/local/bootstrap.sql
 * for what hosted Supabase provides, then `supabase db push`. migrate() does nothing else that a
 * test needs: it adds its checksum column to the CLI's history table, which the local stack
 * backfills when it first starts on such a database (tests/db/migrate-cli.test.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '../../supabase/local/db.ts';
import { bootstrap, migrate } from '../../supabase/local/migrate.ts';
import { pushMigrations } from '../../supabase/tools/supabase-cli.ts';
import { adminUrl, databaseUrlFor } from './pg-url.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteDump: string;
    pgTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'linkboard-test-'));
  const db = await openPglite();
  await migrate(db);
  const dump = await db.pglite.dumpDataDir('none');
  await db.close();
  const dumpPath = join(dir, 'migrated.tar');
  writeFileSync(dumpPath, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteDump', dumpPath);

  let template = '';
  const url = process.env.DATABASE_URL;
  if (url) {
    template = `lb_template_${process.pid}`;
    const admin = openPostgres(adminUrl(url));
    await admin.exec(`drop database if exists ${template}`);
    await admin.exec(`create database ${template}`);
    const templateUrl = databaseUrlFor(url, template);
    const templateDb = openPostgres(templateUrl);
    await bootstrap(templateDb);
    await templateDb.close();
    await pushMigrations(templateUrl);
    await admin.close();
  }
  project.provide('pgTemplate', template);

  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (url && template) {
      const admin = openPostgres(adminUrl(url));
      const { rows } = await admin.query<{ datname: string }>(
        `select datname from pg_database where datname like $2 or datname = $1`,
        [template, `${template.replace('lb_template_', 'lb_test_')}\\_%`],
      );
      for (const row of rows) await admin.exec(`drop database if exists ${row.datname} with (force)`);
      await admin.close();
    }
  };
}
