/**
 * What an Edge Function receives besides its Request. On hosted Supabase these come from
 * Deno.env and the global fetch; the local stack passes them in, with a fetch that reaches
 * the stack in-process.
 */
export interface FunctionEnv {
  SUPABASE_URL: string;
  SUPABASE_ANON_KEY: string;
  SUPABASE_SERVICE_ROLE_KEY: string;
  SUPPORT_EMAIL: string;
  fetch: typeof fetch;
}

export type FunctionHandler = (req: Request, env: FunctionEnv) => Promise<Response>;
