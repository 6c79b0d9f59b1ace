/** What the parts of the local stack share: the database, the JWT secret and the keys. */
import type { Hono } from 'hono';
import type { Db } from './db.ts';
import { keysFor, type StackKeys } from './keys.ts';

export interface StackContext {
  db: Db;
  jwtSecret: string;
  supportEmail: string;
  /** The anon and service_role keys for jwtSecret (computed once). */
  keys(): Promise<StackKeys>;
  /** The whole stack, so functions can call it in-process. */
  root(): Hono;
}

export function makeContext(options: {
  db: Db;
  jwtSecret: string;
  supportEmail: string;
  root: () => Hono;
}): StackContext {
  let keys: Promise<StackKeys> | undefined;
  return {
    db: options.db,
    jwtSecret: options.jwtSecret,
    supportEmail: options.supportEmail,
    keys: () => (keys ??= keysFor(options.jwtSecret)),
    root: options.root,
  };
}

/** Reads a JSON body; an empty body counts as {}. */
export async function readJsonBody(req: Request): Promise<{ ok: true; value: unknown } | { ok: false; error: string }> {
  const text = await req.text().catch(() => '');
  if (text.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : 'invalid JSON' };
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `to_char` of a timestamptz as GoTrue and PostgREST print it (UTC, microseconds). */
export function isoSql(column: string): string {
  return `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}
