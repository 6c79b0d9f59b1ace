/**
 * The RPC surface a client is meant to reach, shared by
 * tests/db/rpc-surface.test.ts, which holds the database to it, and tests/local/fuzz.test.ts,
 * which calls every entry with malformed arguments; and the HTTP helpers both use.
 */
import { CLIENT_RPCS, type AllowedRpc } from '../../supabase/tools/client-rpcs.ts';
import { anonKey, URL_BASE, type TestStack } from './stack.ts';

/**
 * Every function in schema public that a client role may execute: the API. The helpers row-level
 * security calls live in schema private, which the API does not expose
 * (tests/db/private-executables.ts lists those a client role may execute, and why).
 */
export const ALLOWED_RPCS: Record<string, AllowedRpc> = CLIENT_RPCS;

/**
 * Helpers that are not the API: the policy helpers and set_directory_password, which once were
 * in public and answered over /rest/v1/rpc (now in schema private), and private functions a
 * client could misuse. None may answer a client over HTTP.
 */
export const HIDDEN_HELPERS: Record<string, Record<string, unknown>> = {
  is_directory_owner: { dir: '6f1c3a52-86a4-4f5e-9d5a-0f6f8f0b2c11' },
  is_directory_member: { dir: '6f1c3a52-86a4-4f5e-9d5a-0f6f8f0b2c11' },
  can_view_directory: { dir: '6f1c3a52-86a4-4f5e-9d5a-0f6f8f0b2c11' },
  can_edit_directory: { dir: '6f1c3a52-86a4-4f5e-9d5a-0f6f8f0b2c11' },
  viewable_directory_ids: {},
  can_see_post: { post: '6f1c3a52-86a4-4f5e-9d5a-0f6f8f0b2c11' },
  my_tier: {},
  set_directory_password: { p_directory_id: '6f1c3a52-86a4-4f5e-9d5a-0f6f8f0b2c11', p_password: 'pw' },
  throttle_record: { p_bucket: 'directory_password', p_subject: 'x' },
  queue_event_mail: { p_event: '6f1c3a52-86a4-4f5e-9d5a-0f6f8f0b2c11' },
};

/** The sync internals once found callable, with arguments of their old signatures. */
export const SYNC_INTERNALS: Record<string, Record<string, unknown>> = {
  sync_record_answer: { p_mutation_id: '6f1c3a52-86a4-4f5e-9d5a-0f6f8f0b2c11', p_result: { junk: true } },
  sync_recorded_answer: { p_mutation_id: '6f1c3a52-86a4-4f5e-9d5a-0f6f8f0b2c11' },
  sync_apply: { p_name: 'link.delete', p_args: {} },
  sync_apply_profile: { p_name: 'profile.update', p_args: { bio: 'x' } },
  sync_apply_directory: { p_name: 'directory.create', p_args: {} },
  sync_apply_link: { p_name: 'link.delete', p_args: {} },
  sync_apply_member: { p_name: 'member.remove', p_args: {} },
  sync_apply_event: { p_name: 'event.delete', p_args: {} },
  sync_apply_series: { p_name: 'series.delete', p_args: {} },
  sync_apply_poll: { p_name: 'poll.vote', p_args: {} },
  sync_push_one: { p_id: '6f1c3a52-86a4-4f5e-9d5a-0f6f8f0b2c11', p_name: 'link.delete', p_args: {} },
  sync_insert_allowed: { p_directory: '6f1c3a52-86a4-4f5e-9d5a-0f6f8f0b2c11', p_owner_only: false },
  sync_insert_series: { p_args: {} },
  sync_canonical: { p_touched: {} },
  sync_touched: { p_name: 'link.delete', p_args: {} },
  sync_missing: { p_table: 'saved_links', p_id: '6f1c3a52-86a4-4f5e-9d5a-0f6f8f0b2c11', p_delete: false },
  sync_uuid: { p_args: {}, p_key: 'id' },
  sync_bool: { p_args: {}, p_key: 'id' },
  sync_text_array: { p_value: [] },
  sync_fallback_message: { p_name: 'link.create' },
  sync_error_code: { p_state: '22023', p_hint: null, p_table: null },
  sync_mutation_names: {},
  sync_synced_tables: {},
  sync_pull_cursor: { p_cursor: {} },
  // Their new homes in schema private, which PostgREST does not expose.
  sync_text: { p_args: {}, p_key: 'id' },
  sync_directory_owners: { p_directories: [] },
  sync_purge_answers: {},
  sync_purge_my_answers: {},
  confirmed_email: {},
};

export interface Caller {
  name: string;
  headers: Record<string, string>;
}

export const anonCaller: Caller = { name: 'anon', headers: { apikey: anonKey } };

/** Signs in with e-mail and password through /auth/v1 (as the app does) and returns the caller. */
export async function signIn(stack: TestStack, email: string, password = 'password'): Promise<Caller> {
  const response = await stack.fetch(`${URL_BASE}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: anonKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = (await response.json()) as { access_token?: string };
  if (!response.ok || !body.access_token) throw new Error(`sign-in failed: ${response.status} ${JSON.stringify(body)}`);
  return { name: email, headers: { apikey: anonKey, Authorization: `Bearer ${body.access_token}` } };
}

export interface RpcAnswer {
  status: number;
  body: unknown;
}

/** POSTs a raw body to /rest/v1/rpc/<fn> as the caller. */
export async function rpc(
  stack: TestStack,
  caller: Caller,
  fn: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<RpcAnswer> {
  const response = await stack.fetch(`${URL_BASE}/rest/v1/rpc/${fn}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...caller.headers, ...headers },
    body,
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: kept as text for the failure message
  }
  return { status: response.status, body: parsed };
}
