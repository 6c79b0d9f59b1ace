/**
 * Bad input gets 4xx, never 5xx, and never a partial write. Through the
 * in-process local stack (raw HTTP, as a client reaches it), on PGlite and on PostgreSQL when
 * DATABASE_URL is set, with a seeded PRNG (FUZZ_SEED, FUZZ_RUNS to change the seed and size):
 *   - every allow-listed RPC (tests/local/fuzz-rpcs.ts), as anon and signed in, with its
 *     arguments missing, null, of every wrong JSON type, oversized, unknown, and bodies that are
 *     not an object or over the body limit;
 *   - sync_push's and sync_pull's envelopes (p_mutations, p_cursor with crafted cursors, p_limit);
 *   - every mutation name with each argument of a wrong type or oversized: rejected `invalid`,
 *     nothing written; then random mutations (names, dropped and replaced arguments, junk).
 * A call answered 4xx, or a push whose every mutation was rejected, must leave every table's
 * checksum unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mutationNames, type MutationName } from '../../src/domain/mutation-contract.ts';
import { createUser, dbKinds } from '../support/db.ts';
import { mulberry32 } from '../support/prng.ts';
import { snapshot } from '../sync-server/sync.ts';
import { startTestStack, URL_BASE, type TestStack } from './stack.ts';
import { ALLOWED_RPCS, anonCaller, rpc, signIn, type Caller, type RpcAnswer } from './fuzz-rpcs.ts';
import {
  FUTURE,
  HUGE,
  LATER,
  UNTIL,
  baseArgs,
  junkValues,
  nested,
  perturb,
  short,
  wrongValues,
  type Args,
  type Failure,
  type Fixtures,
} from './fuzz-values.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 250);
const CODES = ['limit_reached', 'forbidden', 'invalid', 'not_found', 'poll_closed', 'already_voted', 'conflict'];

describe.each(dbKinds)('fuzz over HTTP (%s)', (kind) => {
  let stack: TestStack;
  let owner: Caller;
  let member: Caller;
  let f: Fixtures;
  let baseline: Record<string, string>;
  const prng = mulberry32(SEED);
  /** Answers by function and status (FUZZ_VERBOSE=1 prints them). */
  const tally = new Map<string, number>();

  beforeAll(async () => {
    stack = await startTestStack({ kind });
    const ownerAccount = await createUser(stack.db, { tier: 'team', username: 'fuzzowner' });
    const memberAccount = await createUser(stack.db);
    owner = await signIn(stack, ownerAccount.email);
    member = await signIn(stack, memberAccount.email);
    f = {
      ownerId: ownerAccount.id,
      memberId: memberAccount.id,
      directory: prng.uuid(),
      link: prng.uuid(),
      member: prng.uuid(),
      event: prng.uuid(),
      task: prng.uuid(),
      series: prng.uuid(),
      occurrence: prng.uuid(),
      poll: prng.uuid(),
      timePoll: prng.uuid(),
      slot: prng.uuid(),
    };
    const setup = [
      ['directory.create', { id: f.directory, name: 'Fuzz', is_public: true, password: 'secret' }],
      ['link.create', { id: f.link, directory_id: f.directory, url: 'https://fuzz.example', title: 'L' }],
      ['member.invite', { id: f.member, directory_id: f.directory, user_email: memberAccount.email, role: 'editor' }],
      ['event.create', { id: f.event, title: 'E', starts_at: FUTURE, ends_at: LATER, is_task: false }],
      ['event.create', { id: f.task, title: 'T', starts_at: null, ends_at: null, is_task: true }],
      [
        'series.create',
        {
          series_id: f.series,
          rule: 'daily',
          until: UNTIL,
          occurrences: [{ id: f.occurrence, title: 'S', description: null, starts_at: FUTURE, ends_at: LATER }],
        },
      ],
      ['poll.create', { id: f.poll, title: 'Poll', options: ['a', 'b'], deadline: UNTIL, directory_id: f.directory }],
      [
        'poll.create_time',
        {
          id: f.timePoll,
          title: 'When',
          time_zone: 'UTC',
          slots: [
            { id: f.slot, start: FUTURE, minutes: 30 },
            { id: prng.uuid(), day: '2031-01-02' },
          ],
        },
      ],
    ].map(([name, args]) => ({ id: prng.uuid(), name, args }));
    const answer = await rpc(stack, owner, 'sync_push', JSON.stringify({ p_mutations: setup }));
    const results = (answer.body as { results: { status: string; message?: string }[] }).results;
    expect(results.map((r) => `${r.status} ${r.message ?? ''}`.trim())).toEqual(setup.map(() => 'applied'));
    baseline = await snapshot(stack.db);
  });
  afterAll(async () => {
    if (process.env.FUZZ_VERBOSE) {
      const total = [...tally.values()].reduce((a, b) => a + b, 0);
      console.log(`fuzz (${kind}, seed ${SEED}): ${total} calls`, Object.fromEntries([...tally].sort()));
    }
    await stack.close();
  });

  /** Calls, records any 5xx, and checks that a 4xx wrote nothing. */
  async function call(
    failures: Failure[],
    caller: Caller,
    fn: string,
    body: string,
    options: { method?: 'GET' | 'POST'; query?: string } = {},
  ): Promise<RpcAnswer> {
    let answer: RpcAnswer;
    if (options.method === 'GET') {
      const response = await stack.fetch(`${URL_BASE}/rest/v1/rpc/${fn}?${options.query ?? ''}`, {
        headers: caller.headers,
      });
      answer = { status: response.status, body: await response.text() };
    } else {
      answer = await rpc(stack, caller, fn, body);
    }
    const key = `${fn} ${answer.status}`;
    tally.set(key, (tally.get(key) ?? 0) + 1);
    const record = (why: string) =>
      failures.push({
        caller: caller === anonCaller ? 'anon' : caller === owner ? 'owner' : 'member',
        fn,
        body: short(options.method === 'GET' ? `GET ?${options.query}` : body),
        status: answer.status,
        answer: `${why}${short(JSON.stringify(answer.body) ?? '', 300)}`,
      });
    if (answer.status >= 500) record('');
    const after = await snapshot(stack.db);
    if (answer.status >= 400) {
      if (JSON.stringify(after) !== JSON.stringify(baseline)) record('a 4xx wrote: ');
    }
    baseline = after;
    return answer;
  }

  /** Pushes mutations as the caller; checks the answer's shape and that an all-rejected push wrote nothing. */
  async function push(failures: Failure[], caller: Caller, mutations: unknown[]) {
    const before = baseline;
    const body = JSON.stringify({ p_mutations: mutations });
    const answer = await call(failures, caller, 'sync_push', body);
    if (answer.status !== 200) return null;
    const results = (answer.body as { results?: { status: string; code?: string }[] }).results ?? [];
    for (const result of results) {
      const key = `push ${result.status} ${result.code ?? ''}`.trim();
      tally.set(key, (tally.get(key) ?? 0) + 1);
    }
    const fail = (why: string) =>
      failures.push({ caller: 'push', fn: 'sync_push', body: short(body), status: 200, answer: why });
    if (results.length !== mutations.length) fail(`answered ${results.length} of ${mutations.length}`);
    for (const result of results) {
      if (result.status === 'rejected' && !CODES.includes(result.code ?? '')) fail(`unknown code ${result.code}`);
      if (result.status !== 'rejected' && result.status !== 'applied') fail(`status ${result.status}`);
    }
    if (
      results.every((result) => result.status === 'rejected') &&
      JSON.stringify(baseline) !== JSON.stringify(before)
    ) {
      fail('a rejected push wrote');
    }
    return results;
  }

  it('never answers an allow-listed RPC with 5xx, nor writes on a 4xx', { timeout: 120_000 }, async () => {
    const failures: Failure[] = [];
    const junk = junkValues(prng);
    const { rows } = await stack.db.query<{ name: string; args: string[] | null }>(
      `select p.proname::text as name, p.proargnames as args from pg_proc p
       where p.pronamespace = 'public'::regnamespace and p.proname = any ($1::text[]) order by 1`,
      [Object.keys(ALLOWED_RPCS)],
    );
    expect(new Set(rows.map((row) => row.name))).toEqual(new Set(Object.keys(ALLOWED_RPCS)));
    const plausible: Args = {
      p_directory_id: f.directory,
      p_password: 'secret',
      p_username: 'fuzzowner',
      p_name: 'Name',
      p_email: 'fuzz@example.com',
      p_message: 'Hello',
      p_mutations: [],
      p_cursor: null,
      p_limit: 10,
      dir: f.directory,
      post: f.poll,
    };
    for (const { name, args } of rows) {
      const params = args ?? [];
      const valid = Object.fromEntries(params.map((p) => [p, plausible[p] ?? prng.word()]));
      for (const caller of [anonCaller, member]) {
        const bodies: unknown[] = [{}, valid, { ...valid, p_unknown: 1 }];
        for (const param of params) {
          const { [param]: _omitted, ...rest } = valid;
          bodies.push(rest);
          for (const value of [null, ...Array.from({ length: 7 }, () => prng.pick(junk))]) {
            bodies.push({ ...valid, [param]: value });
          }
        }
        for (const body of bodies) await call(failures, caller, name, JSON.stringify(body));
        for (const raw of ['[]', '"x"', '42', 'null', '{"a":', `{"p":"${'z'.repeat(1_200_000)}"}`]) {
          await call(failures, caller, name, raw);
        }
        const query = params.map((p) => `${p}=${encodeURIComponent(String(prng.pick(junk)))}`).join('&');
        await call(failures, caller, name, '', { method: 'GET', query });
      }
    }
    expect(failures).toEqual([]);
  });

  it('never answers a malformed sync_push or sync_pull envelope with 5xx', { timeout: 60_000 }, async () => {
    const failures: Failure[] = [];
    const junk = junkValues(prng);
    const tooMany = Array.from({ length: 501 }, () => ({
      id: prng.uuid(),
      name: 'event.create',
      args: { id: prng.uuid(), title: 'x', is_task: true },
    }));
    const answer = await call(failures, member, 'sync_push', JSON.stringify({ p_mutations: tooMany }));
    expect(answer.status).toBe(413);
    for (const value of [...junk, [null], [[]], [{}], [{ id: prng.uuid() }], [{ id: prng.uuid(), name: {} }]]) {
      await call(failures, member, 'sync_push', JSON.stringify({ p_mutations: value }));
    }
    const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
    const uid = f.memberId;
    const cursors = [
      ...junk,
      cursor({ v: 1, u: uid, since: 'abc', dirs: [] }),
      cursor({ v: 1, u: uid, since: '99999999999999999999999', dirs: [] }),
      cursor({ v: 1, u: uid, since: '1', dirs: ['not-a-uuid', 5, null] }),
      cursor({ v: 1, u: uid, since: '1', dirs: {} }),
      cursor({ v: 1, u: uid, since: null, dirs: [], page: { floor: '1', after: [1, 'x', 'nope'] } }),
      cursor({ v: 1, u: uid, since: null, dirs: [], page: { floor: 'x', after: 'y', fresh: 5 } }),
      cursor({ v: 1, u: uid, since: '1', dirs: [], page: { floor: '1', after: ['1', HUGE, f.directory] } }),
      cursor({ v: 2, u: uid }),
      cursor(nested(30)),
      'not base64 at all!',
      '=',
    ];
    for (const p_cursor of cursors) {
      for (const p_limit of [prng.pick(junk), 5]) {
        await call(failures, member, 'sync_pull', JSON.stringify({ p_cursor, p_limit }));
      }
    }
    expect(failures).toEqual([]);
  });

  it('rejects every mutation with an argument of the wrong type, or oversized, as invalid, writing nothing', async () => {
    const failures: Failure[] = [];
    const invalid: string[] = [];
    for (const name of mutationNames) {
      const args = baseArgs(f, prng)[name];
      // Anonymous callers reach nothing.
      const anon = await call(
        failures,
        anonCaller,
        'sync_push',
        JSON.stringify({ p_mutations: [{ id: prng.uuid(), name, args }] }),
      );
      expect(anon.status).toBe(401);
      // One push per mutation name: each mutation of a push is judged on its own (its own result,
      // nothing written when rejected), and a push per wrong value made this test minutes long on a busy machine.
      const wrongs = Object.entries(args).flatMap(([key, valid]) =>
        wrongValues(valid).map((wrong) => ({ key, wrong })),
      );
      const mutations = wrongs.map(({ key, wrong }) => ({ id: prng.uuid(), name, args: { ...args, [key]: wrong } }));
      const results = (await push(failures, owner, mutations)) ?? [];
      wrongs.forEach(({ key, wrong }, i) => {
        const result = results[i];
        if (result && (result.status !== 'rejected' || result.code !== 'invalid')) {
          invalid.push(`${name} ${key}=${short(JSON.stringify(wrong), 60)}: ${result.status} ${result.code ?? ''}`);
        }
      });
    }
    expect(failures).toEqual([]);
    expect(invalid).toEqual([]);
  });

  it('never answers random mutations with 5xx, nor half-applies a rejected one', { timeout: 120_000 }, async () => {
    const failures: Failure[] = [];
    const junk = junkValues(prng).filter((value) => value !== 'a\u0000b');
    const names: string[] = [...mutationNames, 'link.nope', 'profile', '', 'x'.repeat(1000)];
    for (let run = 0; run < RUNS; run += 1) {
      const caller = prng.chance(0.8) ? owner : prng.chance(0.8) ? member : anonCaller;
      const count = prng.chance(0.8) ? 1 : 2 + prng.int(4);
      const mutations = Array.from({ length: count }, () => {
        const name = prng.pick(names) ?? '';
        const base = baseArgs(f, prng)[name as MutationName] ?? {};
        return { id: prng.chance(0.95) ? prng.uuid() : prng.pick(junk), name, args: perturb(prng, base, junk) };
      });
      await push(failures, caller, mutations);
    }
    expect(failures).toEqual([]);
  });

  // Whatever the fuzzing sent, through any allow-listed RPC or mutation, no plan moved.
  it("changed no one's plan", async () => {
    const { rows } = await stack.db.query<{ id: string; tier: string }>(
      'select id, subscription_tier as tier from public.user_profiles where id = any ($1::uuid[])',
      [[f.ownerId, f.memberId]],
    );
    expect(Object.fromEntries(rows.map((row) => [row.id, row.tier]))).toEqual({
      [f.ownerId]: 'team',
      [f.memberId]: 'free',
    });
  });
});
