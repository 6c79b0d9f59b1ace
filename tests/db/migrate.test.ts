import { mkdtempSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPglite } from '../../supabase/local/db.ts';
import { listMigrations, migrate, MigrationHistoryError } from '../../supabase/local/migrate.ts';

describe('migration runner', () => {
  it('applies every migration once and refuses a history that is not a prefix of the files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
    writeFileSync(join(dir, '20260101000000_one.sql'), 'create table public.one (id int);');
    writeFileSync(join(dir, '20260102000000_two.sql'), 'create table public.two (id int);');
    const db = await openPglite();
    try {
      expect(await migrate(db, dir)).toEqual(['20260101000000', '20260102000000']);
      expect(await migrate(db, dir)).toEqual([]);

      const other = mkdtempSync(join(tmpdir(), 'migrations-'));
      copyFileSync(join(dir, '20260102000000_two.sql'), join(other, '20260102000000_two.sql'));
      await expect(migrate(db, other)).rejects.toBeInstanceOf(MigrationHistoryError);
    } finally {
      await db.close();
    }
  });

  it('rolls back a migration that fails, leaving the history unchanged', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
    writeFileSync(join(dir, '20260101000000_bad.sql'), 'create table public.half (id int); select 1/0;');
    const db = await openPglite();
    try {
      await expect(migrate(db, dir)).rejects.toThrow();
      const { rows } = await db.query("select to_regclass('public.half') as t");
      expect(rows[0]).toEqual({ t: null });
      expect(listMigrations(dir)).toHaveLength(1);
    } finally {
      await db.close();
    }
  });
});
