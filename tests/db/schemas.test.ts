/**
 * Supabase/schemas holds the current definition of every function, trigger,
 * policy and view, and agrees with supabase/migrations: applying the schema files to a migrated
 * database changes nothing in its catalog. When this fails, run `npm run db:diff` (a schema file
 * was edited) or `npm run db:diff -- --write-schemas` (a migration was written by hand).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { compareCatalogs, snapshot, type Catalog } from '../../supabase/tools/catalog.ts';
import { applySchemas, declaredObjects, readSchemas } from '../../supabase/tools/schemas.ts';
import { objectOf, splitStatements } from '../../supabase/tools/sql.ts';
import { dbKinds, freshDb } from '../support/db.ts';

describe.each(dbKinds)('supabase/schemas and the migrations agree (%s)', (kind) => {
  let db: Db;
  let migrated: Catalog;

  beforeAll(async () => {
    db = await freshDb(kind);
    migrated = await snapshot(db);
  });
  afterAll(() => db.close());

  it('declares every function, trigger, policy and view of the migrated database in one schema file', () => {
    const declared = declaredObjects(readSchemas());
    const missing = [...migrated.values()].filter((entry) => !declared.has(entry.object)).map((entry) => entry.key);
    expect(missing).toEqual([]);
    expect([...migrated.values()].some((entry) => entry.key.startsWith('function private.sync_apply_member('))).toBe(
      true,
    );
  });

  it('changes nothing in the catalog when the schema files are applied after the migrations', async () => {
    await applySchemas(db);
    const diff = compareCatalogs(migrated, await snapshot(db));
    expect(diff).toEqual({ changed: [], added: [], removed: [] });
  });
});

describe('the schema tools read SQL by statement', () => {
  it('splits on semicolons outside quotes, dollar quotes and comments, keeping the comment above', () => {
    const sql = [
      '-- header',
      '',
      '-- Says hi; twice.',
      "create or replace function public.hi(p text default 'a;b') returns text",
      'language plpgsql as $$',
      "begin return E'it\\'s;' || $q$;$q$; end",
      '$$;',
      'grant execute on function public.hi(text) to anon;',
      'create policy "a b" on public.t for select using (true);',
      'create or replace trigger t10 before insert on t for each row execute function public.hi();',
    ].join('\n');
    const statements = splitStatements(sql);
    expect(statements.map((s) => objectOf(s.code))).toEqual([
      'function public.hi',
      'function public.hi',
      'policy public.t.a b',
      'trigger public.t.t10',
    ]);
    expect(statements[0]?.comment).toBe('-- Says hi; twice.');
    expect(statements[0]?.code.endsWith('$$;')).toBe(true);
    expect(objectOf('create table public.t (id int);')).toBeNull();
  });
});
