/**
 * The local stack's fixed development keys: the same JWT secret and demo keys that
 * `supabase start` prints. DEVELOPMENT ONLY. They are public knowledge, so anyone can mint
 * tokens for a stack using them; never use them for a deployment reachable by others.
 */
import { SignJWT } from 'jose';

/** The Supabase CLI's well-known local JWT secret (HS256). */
export const DEV_JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';

/** {"iss":"supabase-demo","role":"anon","exp":1983812996} signed with DEV_JWT_SECRET. */
export const DEV_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0';

/** {"iss":"supabase-demo","role":"service_role","exp":1983812996} signed with DEV_JWT_SECRET. */
export const DEV_SERVICE_ROLE_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU';

/** Far-future expiry of the demo keys (2032-11-12). */
export const DEMO_KEY_EXP = 1983812996;

export interface StackKeys {
  jwtSecret: string;
  anonKey: string;
  serviceRoleKey: string;
}

export const devKeys: StackKeys = {
  jwtSecret: DEV_JWT_SECRET,
  anonKey: DEV_ANON_KEY,
  serviceRoleKey: DEV_SERVICE_ROLE_KEY,
};

export function secretKey(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

/** Signs an API key the way the demo keys are made, for a stack with another secret. */
export function signApiKey(role: 'anon' | 'service_role', secret: string): Promise<string> {
  return new SignJWT({ iss: 'supabase-demo', role, exp: DEMO_KEY_EXP })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(secretKey(secret));
}

/** The anon and service_role keys for a secret (the fixed demo keys for the dev secret). */
export async function keysFor(secret: string = DEV_JWT_SECRET): Promise<StackKeys> {
  if (secret === DEV_JWT_SECRET) return devKeys;
  const [anonKey, serviceRoleKey] = await Promise.all([signApiKey('anon', secret), signApiKey('service_role', secret)]);
  return { jwtSecret: secret, anonKey, serviceRoleKey };
}
