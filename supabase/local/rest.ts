/**
 * /rest/v1: PostgREST's RPC routes. Each call runs in one transaction as the caller's role
 * (from the verified JWT in Authorization, else the apikey) with request.jwt.claims set,
 * so grants and row-level security decide, exactly as on hosted Supabase.
 */
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode, StatusCode } from 'hono/utils/http-status';
import type { StackContext } from './context.ts';
import * as v from 'valibot';
import { firstIssue, isPlainObject } from '../../src/domain/input-schema.ts';
import { clientOf, readJsonBody } from './context.ts';
import { apiKeyClaims, apiKeyOf, requireApiKey } from './api-key.ts';
import { bearerToken, isApiRole, verifyJwt, type ApiRole, type Claims } from './jwt.ts';
import { connectionLost, fromDatabaseError, restFail, RestFailure } from './rest-errors.ts';
import { forgetCall, resolveCall } from './rest-functions.ts';
import { holdPush, pushHoldFile } from './fault-hold.ts';
import { isConnectionLoss, literal } from './db.ts';

const RESERVED_QUERY = new Set(['select', 'order', 'limit', 'offset', 'columns', 'apikey']);

/** The guard's mark: a call in one round trip whose function set response GUCs fails with it. */
const RESPONSE_GUCS_SET = 'linkboard: response GUCs set ';

/** uuid::text's form. */
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Functions seen setting response GUCs: their calls read them before the commit. */
const setsResponse = new Set<string>();

function errorResponse(c: Context, failure: RestFailure): Response {
  c.header('Proxy-Status', `PostgREST; error=${failure.body.code}`);
  for (const [name, value] of Object.entries(failure.headers)) c.header(name, value);
  return c.json(failure.body, failure.status);
}

/** The role and claims of the request, as PostgREST derives them from the JWT. */
async function callerOf(c: Context, secret: string): Promise<{ role: ApiRole; claims: Claims }> {
  const header = c.req.header('Authorization');
  let claims: Claims | undefined;
  if (header) {
    const token = bearerToken(header);
    if (!token) throw restFail(401, 'PGRST301', 'Expected a Bearer token in the Authorization header');
    const verified = await verifyJwt(token, secret);
    if (!verified.ok) {
      if (verified.reason === 'expired') throw restFail(401, 'PGRST303', 'JWT expired');
      throw restFail(401, 'PGRST301', 'JWSError JWSInvalidSignature', verified.message);
    }
    claims = verified.claims;
  } else {
    claims = await apiKeyClaims(apiKeyOf(c.req.raw), secret);
  }
  const role = claims?.role ?? 'anon';
  if (!isApiRole(role)) throw restFail(401, 'PGRST301', `JWT role "${role}" is not allowed by the local stack`);
  return { role, claims: claims ?? { role } };
}

/** What PostgreSQL answers hosted PostgREST for a NUL character or a lone surrogate in the arguments. */
const nulFailure = () =>
  restFail(400, '22P05', 'unsupported Unicode escape sequence', '\\u0000 cannot be converted to text.');
const surrogateFailure = (detail: string) => restFail(400, '22P02', 'invalid input syntax for type json', detail);

/** An RPC's arguments: a JSON object of them by name (their types are the database's to check). */
const rpcArgs = v.custom<Record<string, unknown>>(isPlainObject, 'The request body must be a JSON object');

async function readArgs(c: Context): Promise<Record<string, unknown>> {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') {
    const args: Record<string, unknown> = {};
    for (const [key, value] of new URL(c.req.url).searchParams) {
      if (key.includes('\0') || value.includes('\0')) throw nulFailure();
      if (!RESERVED_QUERY.has(key)) args[key] = value;
    }
    return args;
  }
  const parsed = await readJsonBody(c.req.raw);
  if (!parsed.ok && parsed.kind === 'nul') throw nulFailure();
  if (!parsed.ok && parsed.kind === 'surrogate') throw surrogateFailure(parsed.error);
  if (!parsed.ok) throw restFail(400, 'PGRST102', 'Empty or invalid json', parsed.error);
  const args = v.safeParse(rpcArgs, parsed.value);
  if (!args.success) throw restFail(400, 'PGRST102', 'Empty or invalid json', firstIssue(args.issues));
  return args.output;
}

/**
 * `response.status` and `response.headers` as PostgREST reads them after the call: a status from
 * 100 to 599, headers as a JSON array of one-key objects; anything else is the function's bug,
 * answered as PostgREST does (PGRST112, PGRST111) rather than applied.
 */
function responseGucs(
  status: string | null | undefined,
  headers: string | null | undefined,
): { status?: number; headers: Record<string, string> } {
  const out: { status?: number; headers: Record<string, string> } = { headers: {} };
  if (status) {
    const code = Number(status);
    if (!Number.isInteger(code) || code < 100 || code > 599) {
      throw restFail(500, 'PGRST112', 'response.status guc must be a valid status code');
    }
    out.status = code;
  }
  if (headers) {
    let list: unknown;
    try {
      list = JSON.parse(headers);
    } catch {
      list = null;
    }
    if (!Array.isArray(list))
      throw restFail(
        500,
        'PGRST111',
        'response.headers guc must be a JSON array composed of objects with a single key and a string value',
      );
    for (const entry of list) {
      const pairs = entry && typeof entry === 'object' ? Object.entries(entry as Record<string, unknown>) : [];
      if (pairs.length !== 1 || typeof pairs[0]![1] !== 'string') {
        throw restFail(
          500,
          'PGRST111',
          'response.headers guc must be a JSON array composed of objects with a single key and a string value',
        );
      }
      out.headers[pairs[0]![0]] = pairs[0]![1] as string;
    }
  }
  return out;
}

export function restApp(ctx: StackContext): Hono {
  const app = new Hono();
  app.use('*', requireApiKey(ctx));
  // PostgREST serves only its exposed schemas (supabase/config.toml, [api]); the stack serves
  // public, and a request that names another schema gets PostgREST's refusal.
  app.use('*', async (c, next) => {
    const reads = c.req.method === 'GET' || c.req.method === 'HEAD';
    const schema = c.req.header(reads ? 'Accept-Profile' : 'Content-Profile');
    if (schema !== undefined && schema !== 'public') {
      const hint = 'Only the following schemas are exposed: public';
      return errorResponse(c, restFail(406, 'PGRST106', `Invalid schema: ${schema}`, null, hint));
    }
    await next();
  });

  app.on(['GET', 'HEAD', 'POST'], '/rpc/:fn', async (c) => {
    let role: ApiRole = 'anon';
    try {
      const fn = c.req.param('fn');
      const caller = await callerOf(c, ctx.jwtSecret);
      role = caller.role;
      const args = await readArgs(c);
      const call = await resolveCall(ctx.db, fn, Object.keys(args));
      const readOnly = c.req.method !== 'POST';
      const req = c.req.raw;
      const headers = Object.fromEntries([...req.headers].map(([key, value]) => [key.toLowerCase(), value]));
      // What the gateway knows of the client, never what the client says of itself.
      headers['x-forwarded-for'] = clientOf(ctx, c);
      const sub = caller.role === 'authenticated' ? caller.claims.sub : undefined;
      // The fault suite's holds (fault-hold.ts): no-ops unless LINKBOARD_FAULT_PUSH_HOLD_FILE is set.
      await holdPush(fn, 'before-transaction');
      const argsJson = call.text.includes('$1') ? JSON.stringify(args) : null;
      // The request's settings and the caller's role (set_config('role') is SET LOCAL ROLE, as
      // PostgREST does it) in one statement with the transaction's BEGIN; `known` is checked as
      // the connecting role. Then the call with its COMMIT (oneRound), or, for a function that
      // sets response GUCs (or while the fault suite may hold a push before its commit), the call
      // and then the COMMIT once the GUCs are read and found valid, as before: two round trips
      // to PostgreSQL a request instead of four (docs/scale.md, point 7).
      // The user's row by its key: only a lowercase uuid's text can equal `id::text`, so any other
      // sub names no user (a scan of auth.users per request before).
      const known =
        typeof sub !== 'string'
          ? 'true'
          : UUID_TEXT.test(sub)
            ? `exists (select 1 from auth.users u where u.id = ${literal(sub)}::uuid)`
            : 'false';
      const settings = `select ${known} as known,
                set_config('request.jwt.claims', ${literal(JSON.stringify(caller.claims))}, true),
                set_config('request.method', ${literal(req.method)}, true),
                set_config('request.path', ${literal(new URL(req.url).pathname)}, true),
                set_config('request.headers', ${literal(JSON.stringify(headers))}, true),
                set_config('role', ${literal(caller.role)}, true)`;
      const run = (oneRound: boolean) =>
        ctx.db.transaction(async (tx) => {
          const { rows: set } = await tx.script<{ known: boolean }>(
            readOnly ? `set transaction read only;\n${settings}` : settings,
          );
          // A validly signed token for a user who does not exist (deleted, or never was) is refused.
          if (caller.role === 'authenticated' && (typeof sub !== 'string' || !set[0]?.known)) {
            throw restFail(401, 'PGRST301', 'JWT sub claim names no existing user');
          }
          // The call, then PostgREST's response GUCs (a function may set its answer's status and
          // headers), read once the call's rows are all made (a materialized CTE runs first).
          if (oneRound) {
            const text = call.text.split('$1').join(argsJson === null ? '$1' : literal(argsJson));
            const { rows } = await tx.script<{ body?: string | null }>(
              `with _call as materialized (${text})
               select (select body from _call limit 1) as body,
                      case when coalesce(current_setting('response.status', true), '') <> ''
                             or coalesce(current_setting('response.headers', true), '') <> ''
                           then (${literal(RESPONSE_GUCS_SET)} || coalesce(current_setting('response.status', true), ''))::int
                      end as guard
               from (select count(*) from _call) _ran`,
              { commit: true },
            );
            return { body: rows[0]?.body ?? null, response: { headers: {} } as ReturnType<typeof responseGucs> };
          }
          const { rows } = await tx.query<{ body?: string | null; status: string | null; headers: string | null }>(
            `with _call as materialized (${call.text})
             select (select body from _call limit 1) as body,
                    current_setting('response.status', true) as status,
                    current_setting('response.headers', true) as headers
             from (select count(*) from _call) _ran`,
            argsJson === null ? [] : [argsJson],
          );
          const row = rows[0];
          const result = { body: row?.body ?? null, response: responseGucs(row?.status, row?.headers) };
          await holdPush(fn, 'before-commit');
          return result;
        });
      // Only a call of one `$1` is sent as text (call.text of rest-functions.ts has at most one).
      const oneRound = !pushHoldFile() && !setsResponse.has(fn) && call.text.split('$1').length <= 2;
      let answer: Awaited<ReturnType<typeof run>>;
      try {
        answer = await run(oneRound);
      } catch (error) {
        // The function set response GUCs: that call was rolled back whole, and runs again with
        // its GUCs read before the commit (a bad status or headers roll it back, as PostgREST).
        if (!oneRound || !String((error as { message?: unknown } | null)?.message).includes(RESPONSE_GUCS_SET)) {
          throw error;
        }
        setsResponse.add(fn);
        answer = await run(false);
      }
      await holdPush(fn, 'after-commit');
      const { body, response } = answer;
      for (const [name, value] of Object.entries(response.headers)) c.header(name, value);
      if (call.shape === 'void') return c.body(null, (response.status ?? 204) as StatusCode);
      let text = body ?? 'null';
      if ((c.req.header('Accept') ?? '').includes('application/vnd.pgrst.object+json') && text.startsWith('[')) {
        const list = JSON.parse(text) as unknown[];
        if (list.length !== 1) {
          throw restFail(
            406,
            'PGRST116',
            'Cannot coerce the result to a single JSON object',
            `The result contains ${list.length} rows`,
          );
        }
        text = JSON.stringify(list[0]);
      }
      return c.body(text, (response.status ?? 200) as ContentfulStatusCode, {
        'Content-Type': 'application/json; charset=utf-8',
      });
    } catch (error) {
      if (error instanceof RestFailure) return errorResponse(c, error);
      // The database is away (restarting, stopped, the connection cut): PostgREST's 503, which a
      // client retries, never a 500 that counts against what it sent.
      if (isConnectionLoss(error)) return errorResponse(c, connectionLost(error));
      // undefined_function, or a changed signature: the cached call is stale.
      const code = (error as { code?: unknown } | null)?.code;
      if (code === '42883' || code === '42P13' || code === '42804') forgetCall(ctx.db, c.req.param('fn'));
      try {
        return errorResponse(c, fromDatabaseError(error, role));
      } catch {
        console.error('[rest]', error);
        return errorResponse(c, restFail(500, 'PGRST000', 'Unexpected failure in the local stack'));
      }
    }
  });

  app.all('/rpc/:fn', (c) => errorResponse(c, restFail(405, 'PGRST117', `Unsupported HTTP method: ${c.req.method}`)));
  app.all('*', (c) => {
    const table = new URL(c.req.url).pathname.split('/').filter(Boolean).pop() ?? '';
    return errorResponse(
      c,
      restFail(
        404,
        'PGRST205',
        `Could not find the table 'public.${table}' in the schema cache`,
        null,
        'The local stack serves only /rest/v1/rpc/<function>; clients reach data through RPC functions.',
      ),
    );
  });
  return app;
}
