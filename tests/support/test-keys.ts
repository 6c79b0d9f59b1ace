/**
 * Keys for tests: a secret made at random for this test process (no secret is written in the
 * repository) and the anon and service_role keys signed with it. Every in-process stack of the
 * tests is created with it.
 */
import { randomBytes } from 'node:crypto';
import { keysFor } from '../../supabase/local/keys.ts';

export const testKeys = keysFor(process.env.TEST_JWT_SECRET ?? randomBytes(32).toString('base64url'));
export const TEST_JWT_SECRET = testKeys.jwtSecret;
export const TEST_ANON_KEY = testKeys.anonKey;
export const TEST_SERVICE_ROLE_KEY = testKeys.serviceRoleKey;
