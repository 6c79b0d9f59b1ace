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
  const url = process.env.DATABASE_URL;
  const template = inject('pgTemplate');
  if (!url || !template) throw new Error('DATABASE_URL is not set');
  const name = `lb_test_${randomUUID().replaceAll('-', '')}`;
  const admin = openPostgres(adminUrl(url));
  await admin.exec(`create database ${name} template ${template}`);
  await admin.close();
  const db = openPostgres(databaseUrlFor(url, name));
  const close = db.close;
  return {
    ...db,
    async close() {
      await close();
      const cleanup = openPostgres(adminUrl(url));
      await cleanup.exec(`drop database if exists ${name} with (force)`);
      await cleanup.close();
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
