/** The API keys of the e2e run's stack, signed with the secret playwright.config.ts gave it. */
import { keysFor } from '../../supabase/local/keys.ts';

const secret = process.env.E2E_JWT_SECRET;
if (!secret) throw new Error('E2E_JWT_SECRET is not set: run the specs through playwright.config.ts');

export const e2eKeys = keysFor(secret);
