/**
 * Issue 11, point 1: the server's list of synced tables is generated from the client's registry
 * (npm run db:registry writes supabase/schemas/sync_registry.sql). A table declared on one side
 * only fails here: the schema file must be what the registry generates, and the migrated
 * database must answer the registry's list.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { REGISTRY_SQL, registeredTables, registrySql } from '../../supabase/tools/sync-registry.ts';
import { syncedTableNames } from '../../src/data/synced-tables.ts';
import { dbKinds, freshDb } from '../support/db.ts';

describe('the generated server registry', () => {
  it('is exactly what the client registry generates (run npm run db:registry)', () => {
    expect(readFileSync(REGISTRY_SQL, 'utf8')).toBe(registrySql(registeredTables()));
  });

  it('would change with the registry: a table added on the client only shows in the generated text', () => {
    const added = registrySql([...registeredTables(), { name: 'new_table', visibleTo: { own: 'owner_id' } }]);
    expect(added).toContain("'new_table'");
    expect(added).toContain('from public.new_table t\n      where t.owner_id = p_uid');
    expect(added).not.toBe(readFileSync(REGISTRY_SQL, 'utf8'));
  });

  it('refuses a table that declares no visibility, or a column that is not a plain identifier', () => {
    expect(() => registrySql([{ name: 'hidden', visibleTo: {} }])).toThrow('hidden declares no visibility');
    expect(() => registrySql([{ name: 'x', visibleTo: { own: 'id; drop table x' } }])).toThrow(
      'Not a plain SQL identifier',
    );
  });
});

describe.each(dbKinds)('the migrated database (%s)', (kind) => {
  let db: Db;
  beforeAll(async () => {
    db = await freshDb(kind);
  });
  afterAll(() => db.close());

  it('answers the registry list from private.sync_synced_tables()', async () => {
    const { rows } = await db.query<{ names: string[] }>('select private.sync_synced_tables() as names');
    expect(rows[0]?.names).toEqual(syncedTableNames);
  });
});
