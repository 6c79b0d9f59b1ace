/**
 * What the bench runs against: its own build of the app (VITE_BENCH=1, in .bench/dist), the
 * local stack on a free port over an in-memory PGlite (or PostgreSQL at BENCH_DATABASE_URL /
 * DATABASE_URL), accounts made through the stack's auth API and confirmed through its mailbox,
 * and bulk rows written into the stack's database in one statement each (a long-time user's
 * server; seeding is not what the bench measures).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import { projectRoot } from '../../supabase/local/app.ts';
import { authLimitsFrom } from '../../supabase/local/auth-limits.ts';
import { startStack, type RunningStack } from '../../supabase/local/server.ts';
import { confirmEmail } from '../support/confirm-email.ts';

/** Where the bench builds the app (BENCH_DIST: another directory, so two runs do not share one build). */
export const benchDist = process.env.BENCH_DIST ? resolve(process.env.BENCH_DIST) : join(projectRoot, '.bench', 'dist');

export function buildApp(): void {
  const result = spawnSync(
    'npx',
    [
      'vite',
      'build',
      '--outDir',
      benchDist,
      '--emptyOutDir',
      '--logLevel',
      'warn',
      ...(process.env.BENCH_NOMINIFY ? ['--minify', 'false'] : []),
    ],
    {
      cwd: projectRoot,
      stdio: 'inherit',
      env: { ...process.env, VITE_BENCH: '1' },
    },
  );
  if (result.status !== 0) throw new Error(`vite build failed (${result.status ?? result.signal})`);
}

export async function startBenchStack(): Promise<{ stack: RunningStack; database: string }> {
  const databaseUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || undefined;
  const stack = await startStack({
    port: 0,
    host: '127.0.0.1',
    databaseUrl,
    memory: !databaseUrl,
    staticDir: benchDist,
    jwtSecret: process.env.JWT_SECRET || randomBytes(32).toString('base64url'),
    // No broken-link rounds: with no DNS here every seeded https://example.com/… link would be marked
    // broken, 200 every 5 s from the first minute on, each mark a poke and a pull in the middle of other
    // parts' measures (and a link 'changed' where a part expects its own order). The pass is measured on
    // its own (broken-links.ts).
    linkCheckTiming: false,
    authLimits: authLimitsFrom(
      process.env.LINKBOARD_AUTH_LIMITS ??
        '{"signUp":{"max":100000},"signIn":{"max":100000},"mail":{"max":100000},"verify":{"max":100000}}',
    ),
  });
  return { stack, database: databaseUrl ? 'PostgreSQL (DATABASE_URL)' : 'PGlite in memory' };
}

export interface Account {
  id: string;
  email: string;
  password: string;
  username: string;
}

export async function signUp(stack: RunningStack, role: string, tier: 'free' | 'pro' | 'team'): Promise<Account> {
  const tag = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const account = {
    email: `bench-${role}-${tag}@example.com`,
    password: 'bench-password-123',
    username: `bench_${role}_${tag}`,
  };
  const response = await fetch(`${stack.url}/auth/v1/signup`, {
    method: 'POST',
    headers: { apikey: stack.keys.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({
      email: account.email,
      password: account.password,
      data: { username: account.username, full_name: `Bench ${role}` },
    }),
  });
  if (!response.ok) throw new Error(`sign-up: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { user?: { id?: string }; id?: string };
  const id = body.user?.id ?? body.id;
  if (!id) throw new Error('sign-up answered no user id');
  await confirmEmail(fetch, stack.url, account.email);
  // What the billing webhook does: the service role sets the tier.
  const tierSet = await fetch(`${stack.url}/rest/v1/rpc/set_subscription_tier`, {
    method: 'POST',
    headers: {
      apikey: stack.keys.serviceRoleKey,
      authorization: `Bearer ${stack.keys.serviceRoleKey}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ p_user_id: id, p_tier: tier }),
  });
  if (!tierSet.ok) throw new Error(`set_subscription_tier: ${tierSet.status} ${await tierSet.text()}`);
  return { id, ...account };
}

/** The seeded links' titles: 'Link number {i}', i = 1 the newest. */
export const seededTitle = (i: number) => `Link number ${i}`;
export const seededTags = (i: number) => [`tag${i % 17}`, `topic${i % 5}`];
export const seededUrl = (i: number) => `https://example.com/page/${i}`;

/** A directory of `links` links (i = 1 the newest, one second apart). */
export async function seedDirectory(
  stack: RunningStack,
  owner: Account,
  name: string,
  links: number,
  isPublic = false,
): Promise<string> {
  const id = randomUUID();
  await stack.db.query(
    `insert into public.link_directories (id, name, description, is_public, owner_id) values ($1, $2, $3, $4, $5)`,
    [id, name, 'Seeded by the bench', isPublic, owner.id],
  );
  if (links > 0) {
    await stack.db.query(
      `insert into public.saved_links (id, directory_id, url, title, notes, tags, owner_id, created_by, created_at, updated_at)
       select gen_random_uuid(), $1, 'https://example.com/page/' || i, 'Link number ' || i,
              case when i % 3 = 0 then 'note ' || i end,
              array['tag' || (i % 17), 'topic' || (i % 5)], $2, $2,
              now() - i * interval '1 second', now() - i * interval '1 second'
       from generate_series(1, $3::int) i`,
      [id, owner.id, links],
    );
  }
  return id;
}

/** A library seeded by seedLibrary: the big directory's id, then the others'. */
export interface LibrarySeed {
  big: string;
  others: string[];
  links: number;
}

/** The titles of the links of seedLibrary's other directories: '{i} on shelf {d}', i = 1 the newest. */
export const shelfTitle = (shelf: number, i: number) => `Page ${i} on shelf ${shelf}`;

/**
 * A long-time user's library, in three statements whatever its size: one directory of `big`
 * links as seedDirectory makes them (titles seededTitle(i)), and `directories - 1` others of `each`
 * links (titles shelfTitle(d, i), URLs https://example.org/{d}/{i}), each newest first one second apart.
 */
export async function seedLibrary(
  stack: RunningStack,
  owner: Account,
  options: { name: string; directories: number; big: number; each: number },
): Promise<LibrarySeed> {
  const big = await seedDirectory(stack, owner, options.name, options.big);
  const shelves = options.directories - 1;
  const others = (
    await stack.db.query<{ id: string }>(
      `insert into public.link_directories (id, name, description, is_public, owner_id)
       select gen_random_uuid(), 'Shelf ' || d, 'Seeded by the bench', false, $1
       from generate_series(1, $2::int) d
       returning id`,
      [owner.id, shelves],
    )
  ).rows.map((row) => row.id);
  if (others.length > 0 && options.each > 0) {
    await stack.db.query(
      `insert into public.saved_links (id, directory_id, url, title, notes, tags, owner_id, created_by, created_at, updated_at)
       select gen_random_uuid(), dirs.id, 'https://example.org/' || dirs.d || '/' || i, 'Page ' || i || ' on shelf ' || dirs.d,
              case when i % 3 = 0 then 'note ' || i end,
              array['tag' || (i % 17), 'shelf' || dirs.d], $2, $2,
              now() - i * interval '1 second', now() - i * interval '1 second'
       from unnest($1::uuid[]) with ordinality as dirs(id, d), generate_series(1, $3::int) i`,
      [others, owner.id, options.each],
    );
  }
  return { big, others, links: options.big + others.length * options.each };
}

/** What seedCalendar wrote: the calendar screen's counters that do not move with the clock. */
export interface CalendarSeed {
  events: number;
  tasks: number;
  pending: number;
  completed: number;
  /** Of `events`, the occurrences of recurring series. */
  occurrences: number;
}

/**
 * `events` events three hours apart, centred on now (500 span the month before and after), and
 * `tasks` tasks, in one statement: every tenth task undated (due today), the others due at a
 * daytime hour from 20 days ago to 20 days ahead (a few today, the past ones overdue), every
 * fifth completed, priorities low, medium and high in turn. With `series`, that many of the
 * events are instead weekly series of `series.occurrences` each, as the app stores them (one
 * row per occurrence with the series' id, rule and end), the first occurrences from 4 weeks ago.
 */
export async function seedCalendar(
  stack: RunningStack,
  owner: Account,
  events: number,
  tasks = 0,
  series?: { count: number; occurrences: number },
): Promise<CalendarSeed> {
  const occurrences = series ? series.count * series.occurrences : 0;
  if (series && occurrences > 0) {
    await stack.db.query(
      `insert into public.calendar_events
         (title, description, starts_at, ends_at, is_task, priority, is_completed, owner_id, created_at,
          series_id, recurrence_rule, recurrence_end_date)
       select 'Weekly ' || s.n, null, s.first + w * interval '7 days', s.first + w * interval '7 days' + interval '1 hour',
              false, null::text, false, $1::uuid, now() - interval '40 days',
              s.id, 'weekly', s.first + ($3::int - 1) * interval '7 days'
       from (select n, gen_random_uuid() as id,
                    date_trunc('day', now()) - interval '28 days' + (n % 7) * interval '1 day' + (8 + n % 10) * interval '1 hour' as first
             from generate_series(1, $2::int) n) s,
            generate_series(0, $3::int - 1) w`,
      [owner.id, series.count, series.occurrences],
    );
  }
  events -= occurrences;
  await stack.db.query(
    `insert into public.calendar_events
       (title, description, starts_at, ends_at, is_task, priority, is_completed, owner_id, created_at)
     select 'Event ' || i, case when i % 4 = 0 then 'Agenda ' || i end,
            date_trunc('hour', now()) + (i - $2::int / 2) * interval '3 hours',
            date_trunc('hour', now()) + (i - $2::int / 2) * interval '3 hours' + interval '45 minutes',
            false, null::text, false, $1::uuid, now() - interval '40 days'
     from generate_series(1, $2::int) i
     union all
     select 'Task ' || j, case when j % 3 = 0 then 'Notes ' || j end, due, due,
            true, (array['low', 'medium', 'high'])[j % 3 + 1], j % 5 = 0, $1::uuid, now() - interval '40 days'
     from generate_series(1, $3::int) j,
          lateral (select case when j % 10 = 1 then null
                          else date_trunc('day', now()) + (j % 41 - 20) * interval '1 day' + (8 + j % 12) * interval '1 hour'
                          end::timestamptz as due) d`,
    [owner.id, events, tasks],
  );
  const completed = Math.floor(tasks / 5);
  return { events: events + occurrences, tasks, pending: tasks - completed, completed, occurrences };
}

/** The seeded polls' titles: '{prefix} {i}', i = 1 the newest. */
export const seededPollTitle = (prefix: string, i: number) => `${prefix} ${i}`;

/**
 * `polls` open public polls created by `creator` now (one second apart, i = 1 the newest), each
 * with the options Yes and No and no votes, in one statement. They count in the creator's month.
 */
export async function seedPolls(stack: RunningStack, creator: Account, prefix: string, polls: number): Promise<void> {
  await stack.db.query(
    `insert into public.voting_posts (title, options, created_by_id, created_at)
     select $2 || ' ' || i, '[{"text": "Yes", "votes": 0}, {"text": "No", "votes": 0}]'::jsonb, $1::uuid,
            now() - i * interval '1 second'
     from generate_series(1, $3::int) i`,
    [creator.id, prefix, polls],
  );
}
