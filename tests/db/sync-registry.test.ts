/**
 * The server's list of synced tables and of mutation names are generated from the client's
 * registry and mutation contract (npm run db:registry writes supabase/schemas/sync_registry.sql).
 * A table or a mutation declared on one side only fails here: the schema file must be what the
 * client generates, and the migrated database must answer the client's lists.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import {
  REGISTRY_SQL,
  registeredMutations,
  registeredTables,
  registrySql,
} from '../../supabase/tools/sync-registry.ts';
import { syncedTableNames } from '../../src/data/synced-tables.ts';
import { mutationNames } from '../../src/domain/mutation-contract.ts';
import { dbKinds, freshDb } from '../support/db.ts';

describe('the generated server registry', () => {
  it('is exactly what the client registry generates (run npm run db:registry)', () => {
    expect(readFileSync(REGISTRY_SQL, 'utf8')).toBe(registrySql(registeredTables(), registeredMutations()));
  });

  it('would change with the registry: a table added on the client only shows in the generated text', () => {
    const added = registrySql(
      [...registeredTables(), { name: 'new_table', visibleTo: { own: 'owner_id' } }],
      registeredMutations(),
    );
    expect(added).toContain("'new_table'");
    expect(added).toContain('from public.new_table t\n      where t.owner_id = p_uid');
    // sync_push reads a touched row of the new table back with a query of its own, one row or many.
    expect(added).toContain(
      "when 'new_table' then\n          select to_jsonb(t) into found_row\n          from public.new_table t\n          where t.id = ids[1] and t.deleted_at is null;",
    );
    expect(added).toContain('from public.new_table t\n          where t.id = any (ids) and t.deleted_at is null;');
    expect(added).not.toBe(readFileSync(REGISTRY_SQL, 'utf8'));
  });

  it('would change with the contract: a mutation added on the client only shows in the generated text', () => {
    const added = registrySql(registeredTables(), [...registeredMutations(), 'note.create']);
    expect(added).toContain(`    '${registeredMutations().at(-1)}',\n    'note.create'\n  ]`);
    expect(added).not.toBe(readFileSync(REGISTRY_SQL, 'utf8'));
  });

  it('refuses a table that declares no visibility, a column that is not a plain identifier, or a bad mutation name', () => {
    const mutations = registeredMutations();
    expect(() => registrySql([{ name: 'hidden', visibleTo: {} }], mutations)).toThrow('hidden declares no visibility');
    expect(() => registrySql([{ name: 'x', visibleTo: { own: 'id; drop table x' } }], mutations)).toThrow(
      'Not a plain SQL identifier',
    );
    expect(() => registrySql(registeredTables(), ["x.y'); drop table x; --"])).toThrow('Not a mutation name');
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

  it('answers the contract mutation names from private.sync_mutation_names()', async () => {
    const { rows } = await db.query<{ names: string[] }>('select private.sync_mutation_names() as names');
    expect(rows[0]?.names).toEqual(mutationNames);
  });
});
