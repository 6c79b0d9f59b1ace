/**
 * my-directories (docs/product.md, Server calls): GET with a bearer access token → 200 {directories, links}: the live
 * directories the caller owns or is a member of, and their live links. Read through sync_pull
 * from scratch as the caller (RLS applies), paging until more is false. 401 without a token.
 */
import type { FunctionEnv } from '../_shared/types.ts';
import { serverClient } from '../_shared/client.ts';
import { corsHeaders, fetchAs, json, userToken } from './http.ts';
import { serveOnDeno } from '../_shared/serve.ts';

const PAGE = 1000;
const MAX_PAGES = 200;

type Row = Record<string, unknown>;
interface Pull {
  cursor: string;
  more: boolean;
  changes: Partial<Record<string, Row[]>>;
}

const isAuthError = (error: { code?: string; message: string }) =>
  error.code === 'PGRST301' || error.code === 'PGRST303' || error.code === '42501' || /jwt/i.test(error.message);

function withoutSyncColumns(row: Row): Row {
  const { txid: _txid, ...rest } = row;
  return rest;
}

/** Keeps the live rows by id; a row deleted in a later page replaces an earlier live one. */
function collect(target: Map<string, Row>, rows: Row[] | undefined): void {
  for (const row of rows ?? []) {
    const id = String(row.id);
    if (row.deleted_at == null) target.set(id, withoutSyncColumns(row));
    else target.delete(id);
  }
}

export default async function handler(req: Request, env: FunctionEnv): Promise<Response> {
  if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: corsHeaders });
  if (req.method !== 'GET') return json({ error: 'Method not allowed' }, 405, { Allow: 'GET, OPTIONS' });
  const token = userToken(req, env.SUPABASE_ANON_KEY);
  if (!token) return json({ error: 'Missing session token' }, 401);

  try {
    const client = serverClient(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, fetchAs(env.fetch, token));
    const directories = new Map<string, Row>();
    const links = new Map<string, Row>();
    let cursor: string | null = null;
    for (let page = 0; page < MAX_PAGES; page++) {
      const { data, error } = await client.rpc('sync_pull', { p_cursor: cursor, p_limit: PAGE });
      if (error) {
        if (isAuthError(error)) return json({ error: 'Invalid or expired session' }, 401);
        console.error('[my-directories] sync_pull failed:', error);
        return json({ error: 'Server fetch failed' }, 502);
      }
      const pull = data as Pull;
      collect(directories, pull.changes.link_directories);
      collect(links, pull.changes.saved_links);
      if (!pull.more) {
        const live = [...links.values()].filter((link) => directories.has(String(link.directory_id)));
        return json({ directories: [...directories.values()], links: live });
      }
      cursor = pull.cursor;
    }
    return json({ error: 'Server fetch failed' }, 502);
  } catch (error) {
    console.error('[my-directories]', error);
    return json({ error: 'Server fetch failed' }, 502);
  }
}

serveOnDeno(handler);
