/**
 * Migrate.ts records a SHA-256 checksum of each applied migration and refuses
 * to start when an applied migration's file was edited; a database migrated before checksums
 * were recorded is backfilled, not refused.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPglite } from '../../supabase/local/db.ts';
import { freshDb } from '../support/db.ts';
import { MigrationChecksumError, migrate, migrationChecksum, setSiteUrl } from '../../supabase/local/migrate.ts';

const one = 'create table public.one (id int);';
const two = 'create table public.two (id int);';

function migrations(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
  for (const [name, sql] of Object.entries(files)) writeFileSync(join(dir, name), sql);
  return dir;
}

describe('migration checksums', () => {
  it('records the SHA-256 of each applied file', async () => {
    const dir = migrations({ '20260101000000_one.sql': one, '20260102000000_two.sql': two });
    const db = await openPglite();
    try {
      await migrate(db, dir);
      const { rows } = await db.query<{ version: string; checksum: string }>(
        'select version, checksum from supabase_migrations.schema_migrations order by version',
      );
      expect(rows).toEqual([
        { version: '20260101000000', checksum: migrationChecksum(one) },
        { version: '20260102000000', checksum: migrationChecksum(two) },
      ]);
      expect(migrationChecksum(one)).toMatch(/^[0-9a-f]{64}$/);
      expect(migrationChecksum('a;\r\nb;')).toBe(migrationChecksum('a;\nb;'));
    } finally {
      await db.close();
    }
  });

  it('refuses to start, naming the file, when an applied migration was edited', async () => {
    const dir = migrations({ '20260101000000_one.sql': one });
    const db = await openPglite();
    try {
      await migrate(db, dir);
      writeFileSync(join(dir, '20260101000000_one.sql'), `${one}\ncreate table public.sneaky (id int);`);
      writeFileSync(join(dir, '20260102000000_two.sql'), two);
      const refused = migrate(db, dir);
      await expect(refused).rejects.toBeInstanceOf(MigrationChecksumError);
      await expect(refused).rejects.toThrow(/supabase\/migrations\/20260101000000_one\.sql was edited/);
      // Nothing after it was applied either.
      const { rows } = await db.query("select to_regclass('public.two') as t");
      expect(rows[0]).toEqual({ t: null });
    } finally {
      await db.close();
    }
  });

  it('backfills the checksums of a database migrated before they were recorded, then holds it to them', async () => {
    const dir = migrations({ '20260101000000_one.sql': one });
    const db = await openPglite();
    try {
      await migrate(db, dir);
      // As an older migrate.ts left it: no checksum column.
      await db.exec('alter table supabase_migrations.schema_migrations drop column checksum');
      writeFileSync(join(dir, '20260102000000_two.sql'), two);
      expect(await migrate(db, dir)).toEqual(['20260102000000']);
      const { rows } = await db.query<{ checksum: string }>(
        'select checksum from supabase_migrations.schema_migrations order by version',
      );
      expect(rows.map((row) => row.checksum)).toEqual([migrationChecksum(one), migrationChecksum(two)]);
      writeFileSync(join(dir, '20260102000000_two.sql'), `${two} `);
      await expect(migrate(db, dir)).rejects.toThrow(/20260102000000_two\.sql was edited/);
    } finally {
      await db.close();
    }
  });

  it('writes the site URL the server mail links to (its origin) into private.settings', async () => {
    const db = await freshDb();
    try {
      await setSiteUrl(db, 'https://app.example/some/path');
      await setSiteUrl(db, 'https://links.example/');
      const { rows } = await db.query("select value from private.settings where key = 'site_url'");
      expect(rows).toEqual([{ value: 'https://links.example' }]);
    } finally {
      await db.close();
    }
  });
});
