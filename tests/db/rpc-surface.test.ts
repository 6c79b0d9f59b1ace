/**
 * Only the intended RPCs answer. Every function in `public` that `anon` or `authenticated` may
 * execute is one of the API's allow-list (tests/local/fuzz-rpcs.ts); every function in `private`
 * they may execute is one of tests/db/private-executables.ts, for its reason. Schema private is
 * not exposed (supabase/config.toml), so over HTTP an internal or a policy helper answers 404 (or
 * 401/403), never 200.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { createUser, dbKinds, freshDb } from '../support/db.ts';
import { startTestStack, type TestStack } from '../local/stack.ts';
import {
  ALLOWED_RPCS,
  HIDDEN_HELPERS,
  SYNC_INTERNALS,
  anonCaller,
  rpc,
  signIn,
  type Caller,
} from '../local/fuzz-rpcs.ts';
import { PRIVATE_EXECUTABLES } from './private-executables.ts';

interface Executable {
  name: string;
  args: string;
  anon: boolean;
  authenticated: boolean;
}

interface PrivateExecutableRow extends Executable {
  definer: boolean;
}

async function executableIn(db: Db, schema: 'public' | 'private'): Promise<PrivateExecutableRow[]> {
  const { rows } = await db.query<PrivateExecutableRow>(
    `select p.proname::text as name, pg_get_function_identity_arguments(p.oid) as args,
            has_function_privilege('anon', p.oid, 'execute') as anon,
            has_function_privilege('authenticated', p.oid, 'execute') as authenticated,
            p.prosecdef as definer
     from pg_proc p
     where p.pronamespace = $1::regnamespace
       and (has_function_privilege('anon', p.oid, 'execute')
            or has_function_privilege('authenticated', p.oid, 'execute'))
     order by 1, 2`,
    [schema],
  );
  return rows;
}

const executableInPublic = (db: Db) => executableIn(db, 'public');

/** The private functions each row-level security policy names. */
async function namedByPolicies(db: Db): Promise<Set<string>> {
  const { rows } = await db.query<{ expr: string }>(
    `select coalesce(qual, '') || ' ' || coalesce(with_check, '') as expr from pg_policies where schemaname = 'public'`,
  );
  const names = new Set<string>();
  for (const { expr } of rows) for (const match of expr.matchAll(/private\.(\w+)\(/g)) names.add(match[1]!);
  return names;
}

describe.each(dbKinds)('the RPC surface (%s)', (kind) => {
  let db: Db;
  beforeAll(async () => {
    db = await freshDb(kind);
  });
  afterAll(() => db.close());

  it('lets client roles execute only the allow-listed functions in public', async () => {
    const executable = await executableInPublic(db);
    const unexpected = executable.filter((fn) => !(fn.name in ALLOWED_RPCS)).map((fn) => `${fn.name}(${fn.args})`);
    expect(unexpected).toEqual([]);
    const anonUnexpected = executable
      .filter((fn) => fn.anon && !ALLOWED_RPCS[fn.name]?.anon)
      .map((fn) => `${fn.name}(${fn.args})`);
    expect(anonUnexpected).toEqual([]);
    // The sync entry points are there, for signed-in users only.
    const sync = executable.filter((fn) => fn.name === 'sync_push' || fn.name === 'sync_pull');
    expect(sync.map((fn) => [fn.name, fn.anon, fn.authenticated])).toEqual([
      ['sync_pull', false, true],
      ['sync_push', false, true],
    ]);
  });

  it('lets client roles execute in private only the allow-listed functions, each for its reason', async () => {
    const executable = await executableIn(db, 'private');
    expect(executable.filter((fn) => fn.anon).map((fn) => fn.name)).toEqual([]);
    // Both ways: nothing beyond the list, and no entry that lost its need (a stale entry would
    // let a grant come back unnoticed).
    expect(executable.map((fn) => fn.name).sort()).toEqual(Object.keys(PRIVATE_EXECUTABLES).sort());
    const policies = await namedByPolicies(db);
    const wrong: string[] = [];
    for (const fn of executable) {
      const entry = PRIVATE_EXECUTABLES[fn.name]!;
      if (entry.kind === 'caller' && fn.definer) wrong.push(`${fn.name} is security definer`);
      if (entry.kind !== 'caller' && !fn.definer) wrong.push(`${fn.name} is not security definer`);
      if (entry.kind === 'policy' && !policies.has(fn.name)) wrong.push(`${fn.name}: no policy names it`);
      if (entry.kind !== 'policy' && policies.has(fn.name)) wrong.push(`${fn.name}: a policy names it`);
    }
    // Every helper a policy names is executable: else the policy would fail for the caller.
    for (const name of policies) if (PRIVATE_EXECUTABLES[name]?.kind !== 'policy') wrong.push(`${name}: not listed`);
    expect(wrong).toEqual([]);
  });

  it('keeps the policy helpers out of public, and the throttles and the mail queue from clients', async () => {
    const moved = Object.keys(HIDDEN_HELPERS);
    const { rows } = await db.query<{ schema: string; name: string }>(
      `select p.pronamespace::regnamespace::text as schema, p.proname::text as name from pg_proc p
       where p.proname = any ($1::text[]) and p.pronamespace in ('public'::regnamespace, 'private'::regnamespace)
       order by 2`,
      [moved],
    );
    expect(rows.map((row) => `${row.schema}.${row.name}`)).toEqual([...moved].sort().map((name) => `private.${name}`));
    for (const name of ['throttle', 'throttle_record', 'throttle_wait', 'queue_event_mail', 'queue_series_mail']) {
      expect(PRIVATE_EXECUTABLES[name], name).toBeUndefined();
    }
    expect(PRIVATE_EXECUTABLES.queue_invitation_mail).toBeUndefined();
  });

  it('serves only schemas public and graphql_public over the API', () => {
    const toml = readFileSync('supabase/config.toml', 'utf8');
    const api = /\[api\][^[]*?\nschemas\s*=\s*(\[[^\]]*\])/.exec(toml);
    expect(api?.[1] && (JSON.parse(api[1]) as string[])).toEqual(['public', 'graphql_public']);
  });

  it('keeps no sync internal in public', async () => {
    const { rows } = await db.query<{ name: string }>(
      `select p.proname::text as name from pg_proc p
       where p.pronamespace = 'public'::regnamespace and p.proname like 'sync\\_%' order by 1`,
    );
    expect(rows.map((row) => row.name)).toEqual(['sync_pull', 'sync_push']);
    const internals = Object.keys(SYNC_INTERNALS).filter((name) => name.startsWith('sync_'));
    const { rows: moved } = await db.query<{ name: string }>(
      `select distinct p.proname::text as name from pg_proc p
       where p.pronamespace = 'private'::regnamespace and p.proname = any ($1::text[]) order by 1`,
      [internals],
    );
    expect(moved.map((row) => row.name)).toEqual([...internals].sort());
  });

  it('gives anon no way into schema private, and only the service role the answers purge', async () => {
    const { rows } = await db.query<Record<string, boolean>>(
      `select has_schema_privilege('anon', 'private', 'usage') as anon_usage,
              has_schema_privilege('authenticated', 'private', 'usage') as authenticated_usage,
              has_function_privilege('authenticated', 'private.sync_purge_answers()', 'execute') as purge_all,
              has_function_privilege('service_role', 'private.sync_purge_answers()', 'execute') as purge_service,
              has_table_privilege('authenticated', 'public.sync_mutations', 'select') as answers_select`,
    );
    expect(rows[0]).toEqual({
      anon_usage: false,
      authenticated_usage: true,
      purge_all: false,
      purge_service: true,
      answers_select: false,
    });
  });
});

describe.each(dbKinds)('RPC over HTTP (%s)', (kind) => {
  let stack: TestStack;
  let user: Caller;
  beforeAll(async () => {
    stack = await startTestStack({ kind });
    const account = await createUser(stack.db, { tier: 'pro' });
    user = await signIn(stack, account.email);
  });
  afterAll(() => stack.close());

  it('answers an internal with 404 (or 401/403), never 200', async () => {
    const answers: string[] = [];
    for (const caller of [anonCaller, user]) {
      for (const [fn, args] of Object.entries(SYNC_INTERNALS)) {
        for (const headers of [{}, { 'Content-Profile': 'private' }] as Record<string, string>[]) {
          const { status } = await rpc(stack, caller, fn, JSON.stringify(args), headers);
          if (![401, 403, 404, 406].includes(status)) answers.push(`${caller.name} ${fn}: ${status}`);
        }
      }
    }
    expect(answers).toEqual([]);
    const { rows } = await stack.db.query<{ n: number }>('select count(*)::int as n from public.sync_mutations');
    expect(rows[0]!.n).toBe(0);
  });

  it('answers a policy helper, a throttle or the mail queue with 404 (or 401/403), never 200', async () => {
    const answers: string[] = [];
    for (const caller of [anonCaller, user]) {
      for (const [fn, args] of Object.entries(HIDDEN_HELPERS)) {
        for (const headers of [{}, { 'Content-Profile': 'private' }, { 'Accept-Profile': 'private' }] as Record<
          string,
          string
        >[]) {
          const { status } = await rpc(stack, caller, fn, JSON.stringify(args), headers);
          if (![401, 403, 404, 406].includes(status)) answers.push(`${caller.name} ${fn}: ${status}`);
        }
      }
    }
    expect(answers).toEqual([]);
    const { rows } = await stack.db.query<{ n: number }>(
      `select (select count(*) from private.throttle_attempts where bucket = 'directory_password')::int
            + (select count(*) from public.outgoing_mail)::int as n`,
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('answers a server-only function in public with 401/403', async () => {
    const calls: [string, Record<string, unknown>][] = [
      ['set_subscription_tier', { p_user_id: '6f1c3a52-86a4-4f5e-9d5a-0f6f8f0b2c11', p_tier: 'team' }],
      ['lock_account', { p_user: '6f1c3a52-86a4-4f5e-9d5a-0f6f8f0b2c11' }],
      ['tier_of', { p_user: '6f1c3a52-86a4-4f5e-9d5a-0f6f8f0b2c11' }],
    ];
    for (const caller of [anonCaller, user]) {
      for (const [fn, args] of calls) {
        const { status } = await rpc(stack, caller, fn, JSON.stringify(args));
        expect([401, 403], `${caller.name} ${fn}`).toContain(status);
      }
    }
  });

  it('still answers the sync RPCs for a signed-in user, and 401 for anon', async () => {
    expect((await rpc(stack, user, 'sync_pull', '{}')).status).toBe(200);
    expect((await rpc(stack, user, 'sync_push', '{"p_mutations": []}')).status).toBe(200);
    expect((await rpc(stack, anonCaller, 'sync_pull', '{}')).status).toBe(401);
    expect((await rpc(stack, anonCaller, 'sync_push', '{"p_mutations": []}')).status).toBe(401);
  });
});
