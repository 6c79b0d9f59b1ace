/**
 * The hosted entry point. On Supabase's Edge Runtime (Deno) each function's index.ts calls
 * `serveOnDeno(handler)`, which serves it with the environment read from Deno.env (the runtime sets
 * SUPABASE_URL and the keys; the rest are `supabase secrets`). Under Node (the local stack, tests)
 * there is no Deno and it does nothing: the stack imports the default export and passes its own env.
 */
import type { FunctionEnv, FunctionHandler } from './types.ts';

interface DenoLike {
  env: { get(name: string): string | undefined };
  serve(handler: (req: Request) => Response | Promise<Response>): unknown;
}

const OPTIONAL = [
  'SITE_URL',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  // Never set on hosted Supabase: the local test-mode provider's address (tests/local/deno-functions.test.ts).
  'STRIPE_API_BASE',
  'STRIPE_PRICE_PRO_MONTHLY',
  'STRIPE_PRICE_PRO_YEARLY',
  'STRIPE_PRICE_TEAM_MONTHLY',
  'STRIPE_PRICE_TEAM_YEARLY',
  'SMTP_URL',
  'MAIL_FROM',
  'MAIL_CRON_SECRET',
  'MAIL_RETRY_BASE_MS',
  'VAPID_PUBLIC_KEY',
  'VAPID_PRIVATE_KEY',
  'VAPID_SUBJECT',
  'REMINDERS_CRON_SECRET',
  'PREVIEW_FETCH_ALLOW',
] as const;

/** The function's environment on Deno. */
export function denoEnv(deno: DenoLike): FunctionEnv {
  const env: FunctionEnv = {
    SUPABASE_URL: deno.env.get('SUPABASE_URL') ?? '',
    SUPABASE_ANON_KEY: deno.env.get('SUPABASE_ANON_KEY') ?? '',
    SUPABASE_SERVICE_ROLE_KEY: deno.env.get('SUPABASE_SERVICE_ROLE_KEY') ?? '',
    SUPPORT_EMAIL: deno.env.get('SUPPORT_EMAIL') ?? '',
    fetch: (input, init) => fetch(input, init),
  };
  for (const name of OPTIONAL) {
    const value = deno.env.get(name);
    if (value) env[name] = value;
  }
  return env;
}

export function serveOnDeno(handler: FunctionHandler): void {
  const deno = (globalThis as { Deno?: DenoLike }).Deno;
  if (!deno) return;
  const env = denoEnv(deno);
  deno.serve(async (req) => {
    try {
      return await handler(req, env);
    } catch (error) {
      console.error(error);
      return new Response(JSON.stringify({ error: 'The function failed.' }), {
        status: 500,
        headers: { 'Content-Type': 'application/json' },
      });
    }
  });
}
