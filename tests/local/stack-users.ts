/** Users of an in-process stack, signed up and confirmed through its own API, with a supabase-js client each. */
import type { SupabaseClient } from '@supabase/supabase-js';
import { serverClient } from '../../supabase/functions/_shared/client.ts';
import type { Db } from '../../supabase/local/db.ts';
import { TEST_ANON_KEY } from '../support/test-keys.ts';
import { confirmEmail } from '../support/confirm-email.ts';

export interface StackUser {
  id: string;
  email: string;
  token: string;
  client: SupabaseClient;
}

let counter = 0;

/** A new confirmed user of the stack that `call` reaches at `base`, on the given plan. */
export async function signUpConfirmed(
  call: typeof fetch,
  db: Db,
  options: { base: string; prefix: string; tier?: 'free' | 'pro' | 'team' },
): Promise<StackUser> {
  const client = serverClient(options.base, TEST_ANON_KEY, call);
  const email = `${options.prefix}-${Date.now().toString(36)}-${counter++}@example.com`;
  const { data, error } = await client.auth.signUp({ email, password: 'password-123' });
  if (error || !data.session || !data.user) throw new Error(`sign-up failed: ${error?.message}`);
  await confirmEmail(call, options.base, email);
  if (options.tier && options.tier !== 'free') {
    await db.query('update public.user_profiles set subscription_tier = $2 where id = $1', [
      data.user.id,
      options.tier,
    ]);
  }
  return { id: data.user.id, email, token: data.session.access_token, client };
}
