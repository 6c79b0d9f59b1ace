/**
 * The local stack's JWT secret and the API keys derived from it. There is no default secret:
 * it comes from JWT_SECRET, or is generated at random on the first start of an install and kept
 * in .data/jwt-secret (mode 0600). The anon and service_role keys are HS256 tokens signed with it,
 * so they are the same on every start of the same install, and useless against any other.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** GoTrue and PostgREST refuse HS256 secrets shorter than 32 characters. */
export const MIN_SECRET_LENGTH = 32;

/** Far-future expiry of the API keys (2032-11-12), as Supabase's keys carry. */
export const API_KEY_EXP = 1983812996;

export interface StackKeys {
  jwtSecret: string;
  anonKey: string;
  serviceRoleKey: string;
}

export class SecretError extends Error {}

/** The secret's bytes, as this realm's Uint8Array (a test's jsdom TextEncoder makes another realm's, which jose refuses). */
export function secretKey(secret: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(new TextEncoder().encode(secret));
}

export function checkSecret(secret: string, origin: string): string {
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new SecretError(`${origin} must be at least ${MIN_SECRET_LENGTH} characters long.`);
  }
  return secret;
}

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** A compact HS256 JWT of the payload (synchronous, so keys can be made at module load in tests). */
export function signHs256(payload: Record<string, unknown>, secret: string): string {
  const head = `${base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${base64url(JSON.stringify(payload))}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
}

/** An API key (anon or service_role) for the secret; deterministic, so a restart keeps it. */
export function signApiKey(role: 'anon' | 'service_role', secret: string): string {
  return signHs256({ iss: 'supabase', role, exp: API_KEY_EXP }, secret);
}

export function keysFor(secret: string): StackKeys {
  checkSecret(secret, 'The JWT secret');
  return { jwtSecret: secret, anonKey: signApiKey('anon', secret), serviceRoleKey: signApiKey('service_role', secret) };
}

/**
 * The install's secret: JWT_SECRET when set, else the one kept at `file`, made (random, 48
 * bytes, base64url) on the first start. A kept file readable by others is tightened to 0600.
 */
export function installSecret(env: NodeJS.ProcessEnv, file: string): { secret: string; source: string } {
  if (env.JWT_SECRET) return { secret: checkSecret(env.JWT_SECRET, 'JWT_SECRET'), source: 'JWT_SECRET' };
  if (existsSync(file)) {
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    return { secret: checkSecret(readFileSync(file, 'utf8').trim(), file), source: file };
  }
  mkdirSync(dirname(file), { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  return { secret, source: `${file} (new)` };
}
