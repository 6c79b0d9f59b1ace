/**
 * A PostgREST RPC as the anonymous role, with plain `fetch`: the visitor
 * pages call two public functions, and supabase-js (about 45 KB gzipped) is not worth loading
 * for them. The wire format is PostgREST's: POST /rest/v1/rpc/{fn} with the JSON arguments, the
 * anon key as `apikey` and bearer; an error answers { code, message, hint, details }.
 */
import { anonKey, backendUrl } from './config.ts';

export interface RpcError {
  code: string | null;
  message: string;
  hint: string | null;
}

export type RpcAnswer<T> = { data: T; error: null; status: number } | { data: null; error: RpcError; status: number };

export interface RpcTarget {
  url?: string;
  key?: string;
  fetcher?: typeof fetch;
}

/** Calls `fn`; a network failure throws (the caller decides what unreachable means). */
export async function anonRpc<T>(
  fn: string,
  args: Record<string, unknown>,
  { url = backendUrl, key = anonKey, fetcher = fetch }: RpcTarget = {},
): Promise<RpcAnswer<T>> {
  const response = await fetcher(`${url}/rest/v1/rpc/${fn}`, {
    method: 'POST',
    headers: { apikey: key, authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(args),
  });
  const body = parseJson(await response.text());
  if (response.ok) return { data: body as T, error: null, status: response.status };
  const fields = (body ?? {}) as Partial<Record<'code' | 'message' | 'hint', string | null>>;
  return {
    data: null,
    error: { code: fields.code ?? null, message: fields.message ?? response.statusText, hint: fields.hint ?? null },
    status: response.status,
  };
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? null : JSON.parse(text);
  } catch {
    return null;
  }
}
