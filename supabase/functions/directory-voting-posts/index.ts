/**
 * directory-voting-posts (spec 7.1): GET ?dirId={id} with a bearer access token → 200 {posts}: the
 * directory's live team polls (not deleted, is_active not false), newest first, as the caller may
 * see them. Read through sync_pull from scratch as the caller (the same visibility as row-level
 * security on voting_posts), paging until more is false, and kept only when the directory itself
 * is the caller's (owned, or a live membership). A directory the caller cannot see, or that does
 * not exist, answers 200 {posts: []}: the same answer, so no existence oracle. 400 for a missing or
 * malformed dirId; 401 without a token, with only the anon key, or with a bad or expired one.
 */
import type { FunctionEnv } from '../_shared/types.ts';
import { serverClient } from '../_shared/client.ts';
import { corsHeaders, fetchAs, json, userToken } from './http.ts';
import { serveOnDeno } from '../_shared/serve.ts';
import { readQuery } from '../_shared/input.ts';
import { directoryQuery } from '../_shared/directory-query.ts';

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
function collect(target: Map<string, Row>, rows: Row[] | undefined, keep: (row: Row) => boolean = () => true): void {
  for (const row of rows ?? []) {
    const id = String(row.id);
    if (row.deleted_at == null && keep(row)) target.set(id, withoutSyncColumns(row));
    else target.delete(id);
  }
}

/** Newest first; the id breaks a tie (polls made in one push share their created_at). */
function newestFirst(a: Row, b: Row): number {
  const at = String(a.created_at ?? '');
  const bt = String(b.created_at ?? '');
  const byTime = Date.parse(bt) - Date.parse(at);
  if (byTime) return byTime;
  return String(b.id).localeCompare(String(a.id));
}

export default async function handler(req: Request, env: FunctionEnv): Promise<Response> {
  if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: corsHeaders });
  if (req.method !== 'GET') return json({ error: 'Method not allowed' }, 405, { Allow: 'GET, OPTIONS' });
  const token = userToken(req, env.SUPABASE_ANON_KEY);
  if (!token) return json({ error: 'Missing session token' }, 401);

  // Exactly one dirId, a uuid (a repeated parameter is as ambiguous as a missing one).
  const query = readQuery(req.url, directoryQuery);
  if (!query.ok) return json({ error: query.error }, 400);
  const dirId = query.value.dirId.toLowerCase();

  try {
    const client = serverClient(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, fetchAs(env.fetch, token));
    const directories = new Map<string, Row>();
    const posts = new Map<string, Row>();
    const inDirectory = (row: Row) => row.directory_id === dirId && row.is_active !== false;
    let cursor: string | null = null;
    for (let page = 0; page < MAX_PAGES; page++) {
      const { data, error } = await client.rpc('sync_pull', { p_cursor: cursor, p_limit: PAGE });
      if (error) {
        if (isAuthError(error)) return json({ error: 'Invalid or expired session' }, 401);
        console.error('[directory-voting-posts] sync_pull failed:', error);
        return json({ error: 'Server fetch failed' }, 502);
      }
      const pull = data as Pull;
      collect(directories, pull.changes.link_directories, (row) => row.id === dirId);
      collect(posts, pull.changes.voting_posts, inDirectory);
      if (!pull.more) {
        // Only the directory's people: a poll its (removed) creator still pulls does not count.
        if (!directories.has(dirId)) return json({ posts: [] });
        return json({ posts: [...posts.values()].sort(newestFirst) });
      }
      cursor = pull.cursor;
    }
    return json({ error: 'Server fetch failed' }, 502);
  } catch (error) {
    console.error('[directory-voting-posts]', error);
    return json({ error: 'Server fetch failed' }, 502);
  }
}

serveOnDeno(handler);
