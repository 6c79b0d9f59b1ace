/**
 * Migrates one database per test run; each test file then starts from a copy of it
 * (a PGlite data dump, or a real PostgreSQL database created from a template).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '../../supabase/local/db.ts';
import { migrate } from '../../supabase/local/migrate.ts';
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
    const templateDb = openPostgres(databaseUrlFor(url, template));
    await migrate(templateDb);
    await templateDb.close();
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
