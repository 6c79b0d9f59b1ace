/**
 * npm run db:diff: keeps supabase/schemas (the current definition of every function, trigger,
 * policy and view) and supabase/migrations (the history that builds a database) in step.
 *
 *   npm run db:diff [-- --name <what_changed>]   writes a migration with exactly the objects whose
 *                                                 schema-file definition differs from what the
 *                                                 migrations build (and drops the ones removed)
 *   npm run db:diff -- --check                    exits 1 when they disagree (writes nothing)
 *   npm run db:diff -- --write-schemas            rewrites supabase/schemas from the migrations
 *                                                 (after a hand-written migration; review the diff)
 *
 * Each run builds fresh in-memory PGlite databases from the migrations; nothing else is touched.
 */
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { openPglite } from '../local/db.ts';
import { listMigrations, migrate, migrationsDir } from '../local/migrate.ts';
import { compareCatalogs, snapshot, type Catalog } from './catalog.ts';
import { applySchemas, declaredObjects, readSchemas, statementsOf, writeSchemas } from './schemas.ts';

export interface SchemaCheck {
  /** Objects whose definition the schema files change (or add). */
  changed: Set<string>;
  /** Objects in the database that no schema file declares. */
  undeclared: Catalog;
  migrated: Catalog;
}

/** Builds a database from the migrations, applies the schema files, and says what they changed. */
export async function checkSchemas(): Promise<SchemaCheck> {
  const db = await openPglite();
  try {
    await migrate(db);
    const migrated = await snapshot(db);
    const files = readSchemas();
    const declared = declaredObjects(files);
    await applySchemas(db, files);
    const after = await snapshot(db);
    const diff = compareCatalogs(migrated, after);
    const changed = new Set([...diff.changed, ...diff.added].map((key) => after.get(key)!.object));
    const undeclared: Catalog = new Map([...migrated].filter(([, entry]) => !declared.has(entry.object)));
    return { changed, undeclared, migrated };
  } finally {
    await db.close();
  }
}

function timestamp(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getUTCFullYear()}${pad(now.getUTCMonth() + 1)}${pad(now.getUTCDate())}${pad(now.getUTCHours())}${pad(now.getUTCMinutes())}${pad(now.getUTCSeconds())}`;
  // Never before the newest migration (their versions are ordered by name).
  const last = listMigrations().at(-1)?.version ?? '';
  return stamp > last ? stamp : String(BigInt(last) + 1n);
}

async function writeMigration(name: string): Promise<number> {
  const { changed, undeclared } = await checkSchemas();
  if (changed.size === 0 && undeclared.size === 0) {
    console.log('supabase/schemas and supabase/migrations agree: no migration to write.');
    return 0;
  }
  const files = readSchemas();
  const parts = [
    `-- Written by \`npm run db:diff\` from supabase/schemas: ${[...changed, ...[...undeclared.values()].map((e) => `${e.object} (dropped)`)].join(', ')}.`,
    '-- Review it, then commit it with the schema change.',
    '',
  ];
  if (changed.size > 0) parts.push(statementsOf(files, changed));
  if (undeclared.size > 0) {
    parts.push('-- No schema file declares these any more:');
    for (const entry of undeclared.values()) parts.push(entry.drop);
    parts.push('');
  }
  const path = join(migrationsDir, `${timestamp()}_${name}.sql`);
  writeFileSync(path, `${parts.join('\n').trimEnd()}\n`);
  console.log(`Wrote ${relative(process.cwd(), path)}.`);
  const again = await checkSchemas();
  if (again.changed.size > 0 || again.undeclared.size > 0) {
    console.error(
      `After it the schema files still change: ${[...again.changed, ...[...again.undeclared.values()].map((e) => e.object)].join(', ')}. Edit the migration by hand.`,
    );
    return 1;
  }
  console.log('Checked: the migrations now build what supabase/schemas says.');
  return 0;
}

async function check(): Promise<number> {
  const { changed, undeclared } = await checkSchemas();
  if (changed.size === 0 && undeclared.size === 0) {
    console.log('supabase/schemas and supabase/migrations agree.');
    return 0;
  }
  if (changed.size > 0) console.error(`Changed in supabase/schemas, not in a migration: ${[...changed].join(', ')}`);
  if (undeclared.size > 0) {
    console.error(`In the migrations, in no schema file: ${[...undeclared.values()].map((e) => e.key).join(', ')}`);
  }
  console.error('Run `npm run db:diff` to write the migration (or `-- --write-schemas` after a hand-written one).');
  return 1;
}

async function rewriteSchemas(): Promise<number> {
  const db = await openPglite();
  let catalog: Catalog;
  try {
    await migrate(db);
    catalog = await snapshot(db);
  } finally {
    await db.close();
  }
  const fromCatalog = new Set<string>();
  for (let round = 0; round < 3; round++) {
    writeSchemas(catalog, { fromCatalog });
    const { changed } = await checkSchemas();
    if (changed.size === 0) {
      console.log(
        `Wrote supabase/schemas (${catalog.size} objects; ${fromCatalog.size} from the catalog, the rest from their migration text).`,
      );
      return 0;
    }
    for (const object of changed) fromCatalog.add(object);
  }
  console.error('supabase/schemas could not be written so that it matches the migrations.');
  return 1;
}

async function main(args: string[]): Promise<number> {
  if (args.includes('--check')) return check();
  if (args.includes('--write-schemas')) return rewriteSchemas();
  const at = args.indexOf('--name');
  const name = (at >= 0 ? args[at + 1] : undefined) ?? 'schema_change';
  if (!/^[a-z0-9_]+$/.test(name)) {
    console.error('--name: lowercase letters, digits and _ only.');
    return 2;
  }
  return writeMigration(name);
}

if (process.argv[1] && relative(process.argv[1], new URL(import.meta.url).pathname) === '') {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
