/**
 * Test databases. Every test file gets its own migrated database: a PGlite copy of the
 * run's migrated dump, or, when DATABASE_URL is set and `real` is asked for, a real
 * PostgreSQL database made from the run's template.
 */
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { openPglite, openPostgres, type Db, type Sql } from '../../supabase/local/db.ts';
import { adminUrl, databaseUrlFor } from './pg-url.ts';

export type DbKind = 'pglite' | 'postgres';

/** The kinds this run can test: PGlite always, PostgreSQL when DATABASE_URL is set. */
export const dbKinds: DbKind[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export async function freshDb(kind: DbKind = 'pglite'): Promise<Db> {
  if (kind === 'pglite') {
    const dump = new Blob([readFileSync(inject('pgliteDump'))]);
    return openPglite({ loadDataDir: dump });
  }
  return (await postgresDb({ empty: false })).db;
}

/**
 * A new PostgreSQL database of this run (dropped by close): a copy of the migrated template, or
 * with `empty`, one with nothing migrated (not even supabase/local/bootstrap.sql). Its URL too.
 */
export async function postgresDb(options: { empty: boolean }): Promise<{ db: Db; url: string }> {
  const url = process.env.DATABASE_URL;
  const template = inject('pgTemplate');
  if (!url || !template) throw new Error('DATABASE_URL is not set');
  // Named after this run's template, so a run's teardown drops only its own databases.
  const name = `${template.replace('lb_template_', 'lb_test_')}_${randomUUID().replaceAll('-', '')}`;
  const admin = openPostgres(adminUrl(url));
  await admin.exec(options.empty ? `create database ${name}` : `create database ${name} template ${template}`);
  await admin.close();
  const dbUrl = databaseUrlFor(url, name);
  const db = openPostgres(dbUrl);
  const close = db.close;
  return {
    url: dbUrl,
    db: {
      ...db,
      async close() {
        await close();
        const cleanup = openPostgres(adminUrl(url));
        await cleanup.exec(`drop database if exists ${name} with (force)`);
        await cleanup.close();
      },
    },
  };
}

export interface Actor {
  /** auth.users id; omitted for the anonymous visitor. */
  id?: string;
  email?: string;
  role?: 'anon' | 'authenticated' | 'service_role';
}

export const anonymous: Actor = { role: 'anon' };

/**
 * Runs fn as a client role would reach the database through the API: in one transaction,
 * as that role, with the JWT claims set, so row-level security applies.
 */
export function as<T>(db: Db, actor: Actor, fn: (sql: Sql) => Promise<T>): Promise<T> {
  const role = actor.role ?? (actor.id ? 'authenticated' : 'anon');
  const claims = JSON.stringify({ sub: actor.id, email: actor.email, role, aud: role });
  return db.transaction(async (tx) => {
    await tx.query("select set_config('request.jwt.claims', $1, true)", [claims]);
    await tx.exec(`set local role ${role}`);
    return fn(tx);
  });
}

/** Creates an account the way sign-up does (the profile trigger then runs). */
export async function createUser(
  db: Db,
  overrides: { email?: string; username?: string; tier?: 'free' | 'pro' | 'team' } = {},
): Promise<Required<Pick<Actor, 'id' | 'email'>>> {
  const id = randomUUID();
  const email = overrides.email ?? `user-${id.slice(0, 8)}@example.com`;
  const metadata = overrides.username ? { username: overrides.username } : {};
  await db.query(
    `insert into auth.users (id, email, encrypted_password, email_confirmed_at, raw_user_meta_data)
     values ($1, $2, extensions.crypt('password', extensions.gen_salt('bf', 4)), now(), $3::jsonb)`,
    [id, email, JSON.stringify(metadata)],
  );
  if (overrides.tier && overrides.tier !== 'free') {
    await db.query('update public.user_profiles set subscription_tier = $2 where id = $1', [id, overrides.tier]);
  }
  return { id, email };
}

/** Inserts one row into a public table as the connecting superuser (test setup) and returns it. */
export async function insertRow<T = Record<string, unknown>>(
  db: Sql,
  table: string,
  row: Record<string, unknown>,
): Promise<T> {
  const keys = Object.keys(row);
  const { rows } = await db.query<T>(
    `insert into public.${table} (${keys.join(', ')}) values (${keys.map((_, i) => `$${i + 1}`).join(', ')}) returning *`,
    keys.map((key) => row[key]),
  );
  const first = rows[0];
  if (!first) throw new Error(`insert into ${table} returned nothing`);
  return first;
}

export interface SqlError {
  code: string | undefined;
  message: string;
  hint: string | undefined;
}

/** Awaits a statement that must fail and returns its error's SQLSTATE, message and hint. */
export async function sqlError(pending: Promise<unknown>): Promise<SqlError> {
  try {
    await pending;
  } catch (error) {
    const { code, message, hint } = error as { code?: string; message: string; hint?: string };
    return { code, message, hint };
  }
  throw new Error('expected the statement to fail, but it succeeded');
}

class Rollback extends Error {}

/** Like `as`, but always rolls the transaction back, so an attempt leaves no trace. */
export async function asRolledBack<T>(db: Db, actor: Actor, fn: (sql: Sql) => Promise<T>): Promise<T> {
  let value: T | undefined;
  try {
    await as(db, actor, async (sql) => {
      value = await fn(sql);
      throw new Rollback();
    });
  } catch (error) {
    if (!(error instanceof Rollback)) throw error;
  }
  return value as T;
}

/**
 * What one statement does for an actor, rolled back afterwards: the number of rows it
 * returned (a select, or a write with `returning`), or `error <SQLSTATE>`.
 */
export async function outcome(db: Db, actor: Actor, text: string, params: unknown[] = []): Promise<number | string> {
  try {
    return await asRolledBack(db, actor, async (sql) => (await sql.query(text, params)).rows.length);
  } catch (error) {
    return `error ${(error as { code?: string }).code ?? (error as Error).message}`;
  }
}

/** Runs `outcome` for every named actor. */
export async function outcomes(
  db: Db,
  actors: Record<string, Actor>,
  text: string,
  params: unknown[] = [],
): Promise<Record<string, number | string>> {
  const result: Record<string, number | string> = {};
  for (const [name, actor] of Object.entries(actors)) result[name] = await outcome(db, actor, text, params);
  return result;
}
