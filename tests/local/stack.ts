/** The local stack in-process over a fresh test database, and supabase-js clients that reach it. */
import type { SupabaseClient } from '@supabase/supabase-js';
import { serverClient } from '../../supabase/functions/_shared/client.ts';
import type { Hono } from 'hono';
import { createStack } from '../../supabase/local/app.ts';
import { TEST_ANON_KEY, TEST_JWT_SECRET, TEST_SERVICE_ROLE_KEY } from '../support/test-keys.ts';
import type { Db } from '../../supabase/local/db.ts';
import { freshDb, type DbKind } from '../support/db.ts';
import type { MailSettings } from '../../supabase/local/mail-settings.ts';

export const URL_BASE = 'http://127.0.0.1:54321';
export { TEST_ANON_KEY as anonKey, TEST_SERVICE_ROLE_KEY as serviceKey, TEST_JWT_SECRET as jwtSecret };

export interface TestStack {
  db: Db;
  app: Hono;
  fetch: typeof fetch;
  client(key?: string): SupabaseClient;
  close(): Promise<void>;
}

/** Tables and functions the tests need that other migrations may not provide yet; created only when absent. */
const standIns = `
do $$
begin
  if to_regclass('public.outgoing_mail') is null then
    create table public.outgoing_mail (
      id uuid primary key default gen_random_uuid(), to_address text not null, subject text not null,
      body text not null, sender_id uuid, created_at timestamptz not null default now());
    alter table public.outgoing_mail enable row level security;
  end if;
  if to_regprocedure('public.enqueue_mail(text,text,text,uuid)') is null then
    create function public.enqueue_mail(p_to text, p_subject text, p_body text, p_sender uuid) returns uuid
    language sql security definer set search_path = public as $f$
      insert into public.outgoing_mail (to_address, subject, body, sender_id)
      values (p_to, p_subject, p_body, p_sender) returning id $f$;
    revoke execute on function public.enqueue_mail(text, text, text, uuid) from public, anon, authenticated;
    grant execute on function public.enqueue_mail(text, text, text, uuid) to service_role;
  end if;
end
$$;`;

export async function startTestStack(
  options: { staticDir?: string; kind?: DbKind; mail?: MailSettings } = {},
): Promise<TestStack> {
  const db = await freshDb(options.kind);
  await db.exec(standIns);
  const app = createStack({ db, staticDir: options.staticDir, jwtSecret: TEST_JWT_SECRET, mail: options.mail });
  const inProcess: typeof fetch = async (input, init) => app.fetch(new Request(input, init));
  return {
    db,
    app,
    fetch: inProcess,
    client: (key = TEST_ANON_KEY) => serverClient(URL_BASE, key, inProcess),
    close: () => db.close(),
  };
}

let counter = 0;
export const uniqueEmail = (prefix = 'user') => `${prefix}-${Date.now().toString(36)}-${counter++}@example.com`;
