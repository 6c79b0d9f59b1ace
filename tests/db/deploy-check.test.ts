/**
 * `npm run deploy:check` on a PostgreSQL database pushed by the Supabase CLI: complete as
 * docs/deploy.md leaves a hosted project, it passes; with one setting missing or wrong, it names that
 * one. pg_cron and Realtime are not in this cluster: cron.job, cron.schedule and realtime.messages
 * are made here with the columns and signature hosted Supabase has, and the jobs are scheduled
 * with the very `cron.schedule` statements the docs give.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { listMigrations, setSiteUrl } from '../../supabase/local/migrate.ts';
import { checkDeployment, checkExposedSchemas, CRON_JOBS, type Finding } from '../../supabase/tools/deploy-checks.ts';
import { projectRoot } from '../../supabase/tools/supabase-cli.ts';
import { postgresDb } from '../support/db.ts';
import { anonKey, startTestStack, URL_BASE, type TestStack } from '../local/stack.ts';

/** Every `select cron.schedule(...)` statement of the docs that schedule jobs. */
function documentedSchedules(): string[] {
  const docs = ['deploy.md', 'reminders.md'].map((file) => readFileSync(join(projectRoot, 'docs', file), 'utf8'));
  return docs.flatMap((text) => [...text.matchAll(/select cron\.schedule\([\s\S]*?\$\$\);/g)].map((match) => match[0]));
}

const hostedParts = `
create schema cron;
create table cron.job (
  jobid bigserial primary key, schedule text not null, command text not null,
  nodename text not null default 'localhost', nodeport integer not null default 5432,
  database text not null default current_database(), username text not null default current_user,
  active boolean not null default true, jobname text);
create function cron.schedule(job_name text, schedule text, command text) returns bigint language sql as $$
  insert into cron.job (jobname, schedule, command) values (job_name, schedule, command) returning jobid $$;

create schema if not exists realtime;
create table if not exists realtime.messages (
  topic text not null, extension text not null, payload jsonb, event text, private boolean default false,
  updated_at timestamp not null default now(), inserted_at timestamp not null default now(),
  id uuid not null default gen_random_uuid());
alter table realtime.messages enable row level security;
create or replace function realtime.topic() returns text language sql stable as $$
  select nullif(current_setting('realtime.topic', true), '')::text $$;
create policy deploy_check_user_topic on realtime.messages for select to authenticated
  using (realtime.topic() = 'user:' || auth.uid()::text);

do $$ begin
  create role authenticator nologin noinherit;
exception when duplicate_object or unique_violation then null;
end $$;
do $$ begin
  execute format('alter role authenticator in database %I set pgrst.db_schemas = %L',
                 current_database(), 'public, graphql_public');
end $$;
`;

class Rollback extends Error {}

/** The findings for the database with `change` made, rolled back afterwards. */
async function findingsWith(db: Db, change: string): Promise<Finding[]> {
  let findings: Finding[] = [];
  await db
    .transaction(async (tx) => {
      await tx.exec(change);
      findings = await checkDeployment(tx);
      throw new Rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof Rollback)) throw error;
    });
  return findings;
}

function runScript(url: string): Promise<{ code: number; stdout: string }> {
  const script = join(projectRoot, 'supabase', 'tools', 'deploy-check.ts');
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', script, url], { cwd: projectRoot }, (error, stdout) => {
      resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout });
    });
  });
}

const last = listMigrations().at(-1)!;

const breaks: { what: string; check: string; change: string; names: RegExp }[] = [
  {
    what: 'the newest migration is not applied',
    check: 'migrations',
    change: `delete from supabase_migrations.schema_migrations where version = '${last.version}'`,
    names: new RegExp(`not applied: ${last.version}_${last.name} `),
  },
  {
    what: 'site_url is not set',
    check: 'site_url',
    change: "delete from private.settings where key = 'site_url'",
    names: /no site_url/,
  },
  {
    what: 'site_url is http',
    check: 'site_url',
    change: "update private.settings set value = 'http://app.example.com' where key = 'site_url'",
    names: /"http:\/\/app\.example\.com" is not an https/,
  },
  {
    what: 'site_url has a path',
    check: 'site_url',
    change: "update private.settings set value = 'https://app.example.com/app' where key = 'site_url'",
    names: /origin alone, "https:\/\/app\.example\.com"/,
  },
  {
    what: 'the API exposes private',
    check: 'exposed schemas',
    change: `do $$ begin
      execute format('alter role authenticator in database %I set pgrst.db_schemas = %L',
                     current_database(), 'public, private, graphql_public');
    end $$`,
    names: /"public, private, graphql_public": remove private/,
  },
  {
    what: 'the mail job is paused',
    check: 'scheduled jobs',
    change: "update cron.job set active = false where command like '%/functions/v1/deliver-mail%'",
    names: /no active pg_cron job runs \/functions\/v1\/deliver-mail \(every minute\)$/,
  },
  {
    what: 'the throttle purge is not scheduled',
    check: 'scheduled jobs',
    change: "delete from cron.job where command like '%private.throttle_purge()%'",
    names: /runs private\.throttle_purge\(\) \(hourly\)$/,
  },
  {
    what: 'no policy lets authenticated receive on realtime.messages',
    check: 'realtime',
    change: `do $$ declare p text; begin
      for p in select policyname from pg_policies where schemaname = 'realtime' and tablename = 'messages' loop
        execute format('drop policy %I on realtime.messages', p);
      end loop;
    end $$`,
    names: /no policy lets authenticated receive/,
  },
  {
    what: 'a public table has RLS off',
    check: 'row-level security',
    change: 'create table public.leaky_notes (id int primary key, body text)',
    names: /^off on public\.leaky_notes$/,
  },
  {
    what: 'a function the app does not call is executable',
    check: 'client functions',
    change: "create function public.debug_dump() returns text language sql as $$ select 'all of it' $$",
    names: /client roles may execute public\.debug_dump\(\), which the app does not call/,
  },
  {
    what: 'anon may execute sync_push',
    check: 'client functions',
    change: `do $$ declare f regprocedure; begin
      for f in select oid::regprocedure from pg_proc where proname = 'sync_push' and pronamespace = 'public'::regnamespace loop
        execute format('grant execute on function %s to anon', f);
      end loop;
    end $$`,
    names: /anon may execute public\.sync_push\(/,
  },
];

describe.runIf(process.env.DATABASE_URL)('npm run deploy:check (postgres)', () => {
  let db: Db;
  let url: string;
  beforeAll(async () => {
    ({ db, url } = await postgresDb({ empty: false }));
    await db.exec(hostedParts);
    for (const schedule of documentedSchedules()) await db.exec(schedule);
    await setSiteUrl(db, 'https://app.example.com');
  });
  afterAll(() => db?.close());

  it('schedules, from the docs, every job it checks', async () => {
    const { rows } = await db.query<{ command: string }>('select command from cron.job');
    for (const job of CRON_JOBS)
      expect(
        rows.filter((row) => row.command.includes(job.runs)),
        job.name,
      ).toHaveLength(1);
  });

  it('passes a deployment with everything docs/deploy.md sets up', async () => {
    const findings = await checkDeployment(db);
    expect(findings.filter((finding) => finding.verdict !== 'ok')).toEqual([]);
    expect(findings.map((finding) => finding.check)).toEqual([
      'migrations',
      'site_url',
      'exposed schemas',
      'scheduled jobs',
      'realtime',
      'row-level security',
      'client functions',
    ]);
  });

  it.each(breaks)('names $check when $what, and nothing else', async ({ check, change, names }) => {
    const findings = await findingsWith(db, change);
    const failed = findings.filter((finding) => finding.verdict !== 'ok');
    expect(failed.map((finding) => [finding.check, finding.verdict])).toEqual([[check, 'missing']]);
    expect(failed[0]!.message).toMatch(names);
  });

  it('exits 0 when nothing is missing and 1 naming what is', async () => {
    const complete = await runScript(url);
    expect(complete.stdout).toMatch(/Nothing missing\.$/m);
    expect(complete.code).toBe(0);
    await db.exec("delete from private.settings where key = 'site_url'");
    const incomplete = await runScript(url);
    expect(incomplete.stdout).toMatch(/^MISSING +site_url +private\.settings has no site_url/m);
    expect(incomplete.stdout).toMatch(/^1 missing or wrong: see docs\/deploy\.md\.$/m);
    expect(incomplete.code).toBe(1);
  });
});

describe('deploy:check asks the API for schema private', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack?.close());

  it('finds it refused by an API that serves public only (the local stack, as PostgREST)', async () => {
    const finding = await checkExposedSchemas(stack.db, { url: URL_BASE, anonKey, fetch: stack.fetch });
    expect(finding).toEqual({ check: 'exposed schemas', verdict: 'ok', message: `${URL_BASE} refuses schema private` });
  });

  it('names it when the API answers a request for private with anything but its refusal', async () => {
    // The same stack reached past its /rest/v1 prefix: nothing there refuses the schema.
    const finding = await checkExposedSchemas(stack.db, { url: `${URL_BASE}/api`, anonKey, fetch: stack.fetch });
    expect(finding.verdict).toBe('missing');
    expect(finding.message).toMatch(/^the API did not refuse schema private \(it answered 40\d/);
  });
});
