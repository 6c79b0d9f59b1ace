/**
 * Extra connections to a real PostgreSQL test database (from freshDb('postgres')), for tests
 * that need two sessions at once, e.g. a transaction left open while another one reads.
 */
import pg from 'pg';
import type { Sql } from '../../supabase/local/db.ts';
import { databaseUrlFor } from './pg-url.ts';

/** Opens a new client on the same database as db (which must be a real PostgreSQL database). */
export async function openClient(db: Sql): Promise<pg.Client> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set');
  const { rows } = await db.query<{ name: string }>('select current_database() as name');
  const name = rows[0]?.name;
  if (!name) throw new Error('no current database');
  const client = new pg.Client({ connectionString: databaseUrlFor(url, name) });
  client.on('error', () => {});
  await client.connect();
  return client;
}

/** Makes a client act as an API user for the rest of its open transaction (as `as` does). */
export async function actAs(client: pg.Client, actor: { id: string; email: string }): Promise<void> {
  const claims = JSON.stringify({ sub: actor.id, email: actor.email, role: 'authenticated', aud: 'authenticated' });
  await client.query("select set_config('request.jwt.claims', $1, true)", [claims]);
  await client.query('set local role authenticated');
}
