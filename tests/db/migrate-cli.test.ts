/**
 * A database is migrated by the Supabase CLI (`supabase db push`, hosted deployments and the
 * tests' PostgreSQL template) or by supabase/local/migrate.ts (the local stack), and either may
 * take over from the other: both keep supabase_migrations.schema_migrations, each applies only
 * what the other has not recorded, and neither applies a migration twice.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { listMigrations, migrate, migrationChecksum } from '../../supabase/local/migrate.ts';
import { listPushedMigrations, pushMigrations } from '../../supabase/tools/supabase-cli.ts';
import { postgresDb } from '../support/db.ts';

const files = listMigrations();
const versions = files.map((file) => file.version);
const next = String(BigInt(versions.at(-1)!) + 1n);
const probe = `-- A migration written after the database was migrated.
create function private.cli_probe() returns text language sql as $$ select 'applied; once'::text $$;
create table private.cli_probe_rows (id int primary key);
insert into private.cli_probe_rows values (1);
`;

/** A CLI workdir (and migrate.ts folder) with every migration of the repository and the probe after them. */
function workdirWithProbe(): { workdir: string; migrations: string } {
  const workdir = mkdtempSync(join(tmpdir(), 'linkboard-cli-'));
  const migrations = join(workdir, 'supabase', 'migrations');
  mkdirSync(migrations, { recursive: true });
  for (const file of files) copyFileSync(file.path, join(migrations, `${file.version}_${file.name}.sql`));
  writeFileSync(join(migrations, `${next}_cli_probe.sql`), probe);
  return { workdir, migrations };
}

async function history(db: Db) {
  const { rows } = await db.query<{ version: string; name: string; statements: string[] | null }>(
    'select version, name, statements from supabase_migrations.schema_migrations order by version',
  );
  return rows;
}

async function hasChecksumColumn(db: Db): Promise<boolean> {
  const { rows } = await db.query(
    `select 1 from information_schema.columns
     where table_schema = 'supabase_migrations' and table_name = 'schema_migrations' and column_name = 'checksum'`,
  );
  return rows.length === 1;
}

describe.runIf(process.env.DATABASE_URL)('migrations by the Supabase CLI and by the local stack (postgres)', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('starts the local stack on a database the CLI pushed: nothing applied again, a new migration once', async () => {
    // The run's template was pushed by the CLI: its history has the CLI's statements and no checksum.
    const { db, url } = await postgresDb({ empty: false });
    cleanups.push(() => db.close());
    const pushed = await history(db);
    expect(pushed.map((row) => row.version)).toEqual(versions);
    expect(pushed.filter((row) => !row.statements?.length).map((row) => row.version)).toEqual([]);
    expect(await hasChecksumColumn(db)).toBe(false);

    expect(await migrate(db)).toEqual([]);
    const { rows } = await db.query<{ version: string; checksum: string }>(
      'select version, checksum from supabase_migrations.schema_migrations order by version',
    );
    // The CLI's rows are taken as the files are now, and held to them from then on.
    expect(rows).toEqual(
      files.map((file) => ({ version: file.version, checksum: migrationChecksum(readFileSync(file.path, 'utf8')) })),
    );
    expect(await migrate(db)).toEqual([]);

    const { workdir, migrations } = workdirWithProbe();
    cleanups.push(() => rmSync(workdir, { recursive: true, force: true }));
    expect(await migrate(db, migrations)).toEqual([next]);
    expect(await migrate(db, migrations)).toEqual([]);
    expect((await db.query('select id from private.cli_probe_rows')).rows).toEqual([{ id: 1 }]);

    // The CLI agrees that everything, the local stack's new row included, is applied.
    expect(await pushMigrations(url, { workdir, dryRun: true })).toEqual({ upToDate: true, migrations: [] });
    const listed = await listPushedMigrations(url, { workdir });
    expect(listed).toEqual([...versions, next].map((version) => ({ local: version, remote: version })));
  });

  it('pushes with the CLI a database the local stack migrated: up to date, then a new migration once', async () => {
    const { db, url } = await postgresDb({ empty: true });
    cleanups.push(() => db.close());
    expect(await migrate(db)).toEqual(versions);

    // The checksum column migrate.ts adds does not disturb the CLI's bookkeeping.
    expect(await listPushedMigrations(url)).toEqual(versions.map((version) => ({ local: version, remote: version })));
    expect(await pushMigrations(url, { dryRun: true })).toEqual({ upToDate: true, migrations: [] });
    expect(await pushMigrations(url)).toEqual({ upToDate: true, migrations: [] });
    expect((await history(db)).map((row) => row.version)).toEqual(versions);

    const { workdir, migrations } = workdirWithProbe();
    cleanups.push(() => rmSync(workdir, { recursive: true, force: true }));
    expect(await pushMigrations(url, { workdir })).toEqual({ upToDate: false, migrations: [`${next}_cli_probe.sql`] });
    expect(await pushMigrations(url, { workdir })).toEqual({ upToDate: true, migrations: [] });
    expect((await db.query('select private.cli_probe() as answer')).rows).toEqual([{ answer: 'applied; once' }]);
    expect((await history(db)).map((row) => row.version)).toEqual([...versions, next]);

    // And the local stack, started on it again, applies nothing and records the new file's checksum.
    expect(await migrate(db, migrations)).toEqual([]);
    const { rows } = await db.query<{ checksum: string }>(
      'select checksum from supabase_migrations.schema_migrations where version = $1',
      [next],
    );
    expect(rows).toEqual([{ checksum: migrationChecksum(probe) }]);
    expect((await db.query('select id from private.cli_probe_rows')).rows).toEqual([{ id: 1 }]);
  });
});
