/**
 * What `npm run deploy:check` holds a deployed database to (docs/deploy.md): each check reads the
 * database (and, given the project's URL and anon key, asks its API) and answers `ok`, `missing`
 * (the deployment lacks it or has it wrong: the message says what and how to fix it), or
 * `unknown` (it cannot be read from here: the message says where to look instead).
 */
import type { Sql } from '../local/db.ts';
import { listMigrations } from '../local/migrate.ts';
import { CLIENT_RPCS } from './client-rpcs.ts';

export type Verdict = 'ok' | 'missing' | 'unknown';

export interface Finding {
  check: string;
  verdict: Verdict;
  message: string;
}

export interface ApiTarget {
  /** The project URL, e.g. https://<project-ref>.supabase.co. */
  url: string;
  anonKey: string;
  fetch?: typeof fetch;
}

/** The jobs docs/deploy.md schedules with pg_cron: each found by what its command runs. */
export const CRON_JOBS: { name: string; runs: string; every: string }[] = [
  { name: 'throttle purge', runs: 'private.throttle_purge()', every: 'hourly' },
  { name: 'sync answer purge', runs: 'private.sync_purge_answers()', every: 'daily' },
  { name: 'deliver-mail', runs: '/functions/v1/deliver-mail', every: 'every minute' },
  { name: 'send-reminders', runs: '/functions/v1/send-reminders', every: 'every minute' },
  { name: 'check-links', runs: '/functions/v1/check-links', every: 'every 10 minutes' },
];

const ok = (check: string, message: string): Finding => ({ check, verdict: 'ok', message });
const missing = (check: string, message: string): Finding => ({ check, verdict: 'missing', message });
const unknown = (check: string, message: string): Finding => ({ check, verdict: 'unknown', message });

async function exists(db: Sql, relation: string): Promise<boolean> {
  const { rows } = await db.query<{ found: boolean }>('select to_regclass($1) is not null as found', [relation]);
  return rows[0]?.found === true;
}

export async function checkMigrations(db: Sql, dir?: string): Promise<Finding> {
  const check = 'migrations';
  const files = listMigrations(dir).map((file) => `${file.version}_${file.name}`);
  if (!(await exists(db, 'supabase_migrations.schema_migrations'))) {
    return missing(check, 'no migration is recorded (supabase_migrations.schema_migrations): run `supabase db push`');
  }
  const { rows } = await db.query<{ version: string }>('select version from supabase_migrations.schema_migrations');
  const applied = new Set(rows.map((row) => row.version));
  const pending = files.filter((file) => !applied.has(file.split('_')[0]!));
  const versions = new Set(files.map((file) => file.split('_')[0]!));
  const foreign = [...applied].filter((version) => !versions.has(version)).sort();
  const problems: string[] = [];
  if (pending.length) problems.push(`not applied: ${pending.join(', ')} (run \`supabase db push\`)`);
  if (foreign.length) problems.push(`applied but not in supabase/migrations: ${foreign.join(', ')}`);
  if (problems.length) return missing(check, problems.join('; '));
  return ok(check, `all ${files.length} in supabase/migrations are applied`);
}

export async function checkSiteUrl(db: Sql): Promise<Finding> {
  const check = 'site_url';
  const fix = "insert into private.settings (key, value) values ('site_url', 'https://app.your-domain')";
  if (!(await exists(db, 'private.settings')))
    return missing(check, 'private.settings does not exist: push the migrations');
  const { rows } = await db.query<{ value: string | null }>(
    "select value from private.settings where key = 'site_url'",
  );
  const value = rows[0]?.value ?? '';
  if (!value) return missing(check, `private.settings has no site_url, so mailed links are bare paths: ${fix}`);
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'https:') return missing(check, `site_url ${JSON.stringify(value)} is not an https:// address`);
  if (url.origin !== value.replace(/\/$/, '')) {
    return missing(
      check,
      `site_url ${JSON.stringify(value)} must be the app's origin alone, ${JSON.stringify(url.origin)}`,
    );
  }
  return ok(check, `the mail links to ${value}`);
}

/** PostgREST's schemas as the database stores them (`pgrst.db_schemas` of role authenticator), if it does. */
async function storedApiSchemas(db: Sql): Promise<string[] | undefined> {
  const { rows } = await db.query<{ value: string }>(
    `select substr(c.setting, length('pgrst.db_schemas=') + 1) as value
     from pg_db_role_setting s
     join pg_roles r on r.oid = s.setrole and r.rolname = 'authenticator'
     cross join unnest(s.setconfig) as c(setting)
     where s.setdatabase in (0, (select oid from pg_database where datname = current_database()))
       and c.setting like 'pgrst.db_schemas=%'
     order by s.setdatabase desc
     limit 1`,
  );
  return rows[0] ? rows[0].value.split(',').map((schema) => schema.trim()) : undefined;
}

/** Asks the API for schema private: PostgREST answers 406 PGRST106 for a schema it does not expose. */
async function apiRefusesPrivate(api: ApiTarget): Promise<{ refused: boolean; answer: string }> {
  const response = await (api.fetch ?? fetch)(`${api.url.replace(/\/$/, '')}/rest/v1/settings?select=key&limit=1`, {
    headers: { apikey: api.anonKey, Authorization: `Bearer ${api.anonKey}`, 'Accept-Profile': 'private' },
  });
  const body = (await response.json().catch(() => ({}))) as { code?: string };
  return {
    refused: response.status === 406 && body.code === 'PGRST106',
    answer: `${response.status} ${body.code ?? ''}`,
  };
}

export async function checkExposedSchemas(db: Sql, api?: ApiTarget): Promise<Finding> {
  const check = 'exposed schemas';
  const fix = 'Settings → API → Exposed schemas: public and graphql_public only';
  const stored = await storedApiSchemas(db);
  if (stored?.includes('private')) {
    return missing(check, `pgrst.db_schemas of role authenticator is "${stored.join(', ')}": remove private (${fix})`);
  }
  if (api) {
    const { refused, answer } = await apiRefusesPrivate(api);
    if (!refused) return missing(check, `the API did not refuse schema private (it answered ${answer.trim()}): ${fix}`);
    return ok(check, `${api.url} refuses schema private`);
  }
  if (stored) return ok(check, `pgrst.db_schemas of role authenticator is "${stored.join(', ')}"`);
  return unknown(
    check,
    `the API's schemas cannot be read from the database (no pgrst.db_schemas on role authenticator): ` +
      `see ${fix}, or set SUPABASE_URL and SUPABASE_ANON_KEY to ask the API`,
  );
}

export async function checkCronJobs(db: Sql): Promise<Finding> {
  const check = 'scheduled jobs';
  if (!(await exists(db, 'cron.job'))) {
    return unknown(
      check,
      `pg_cron is not installed here, so no job can be checked (docs/deploy.md schedules ${CRON_JOBS.length})`,
    );
  }
  const { rows } = await db.query<{ command: string }>('select command from cron.job where active');
  const absent = CRON_JOBS.filter((job) => !rows.some((row) => row.command.includes(job.runs)));
  if (absent.length) {
    return missing(check, `no active pg_cron job runs ${absent.map((job) => `${job.runs} (${job.every})`).join(', ')}`);
  }
  return ok(check, `pg_cron runs ${CRON_JOBS.map((job) => job.name).join(', ')}`);
}

export async function checkRealtimePolicy(db: Sql): Promise<Finding> {
  const check = 'realtime';
  if (!(await exists(db, 'realtime.messages'))) {
    return unknown(
      check,
      'no realtime.messages table here (hosted Supabase has one), so its policies cannot be checked',
    );
  }
  const { rows } = await db.query<{ policyname: string }>(
    `select policyname from pg_policies
     where schemaname = 'realtime' and tablename = 'messages' and cmd in ('SELECT', 'ALL')
       and roles && array['authenticated', 'public']::name[]`,
  );
  if (!rows.length) {
    return missing(check, 'no policy lets authenticated receive on realtime.messages: push the migrations');
  }
  return ok(check, `realtime.messages: ${rows.map((row) => row.policyname).join(', ')}`);
}

export async function checkRowLevelSecurity(db: Sql): Promise<Finding> {
  const check = 'row-level security';
  const { rows } = await db.query<{ name: string }>(
    `select c.relname::text as name from pg_class c
     where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and not c.relrowsecurity
     order by 1`,
  );
  if (rows.length) return missing(check, `off on public.${rows.map((row) => row.name).join(', public.')}`);
  return ok(check, 'on for every table in public');
}

export async function checkClientFunctions(db: Sql): Promise<Finding> {
  const check = 'client functions';
  const { rows } = await db.query<{ name: string; signature: string; anon: boolean }>(
    `select p.proname::text as name, p.oid::regprocedure::text as signature,
            has_function_privilege('anon', p.oid, 'execute') as anon
     from pg_proc p
     where p.pronamespace = 'public'::regnamespace
       and (has_function_privilege('anon', p.oid, 'execute') or has_function_privilege('authenticated', p.oid, 'execute'))
     order by 2`,
  );
  const unexpected = rows.filter((row) => !(row.name in CLIENT_RPCS)).map((row) => `public.${row.signature}`);
  const anon = rows.filter((row) => row.anon && CLIENT_RPCS[row.name]?.anon === false).map((row) => row.signature);
  const problems: string[] = [];
  if (unexpected.length)
    problems.push(`client roles may execute ${unexpected.join(', ')}, which the app does not call`);
  if (anon.length) problems.push(`anon may execute ${anon.map((sig) => `public.${sig}`).join(', ')}`);
  if (problems.length) return missing(check, `${problems.join('; ')}: revoke execute`);
  return ok(check, `client roles may execute only the app's ${rows.length} RPCs`);
}

export async function checkDeployment(db: Sql, options: { api?: ApiTarget; migrationsDir?: string } = {}) {
  return [
    await checkMigrations(db, options.migrationsDir),
    await checkSiteUrl(db),
    await checkExposedSchemas(db, options.api),
    await checkCronJobs(db),
    await checkRealtimePolicy(db),
    await checkRowLevelSecurity(db),
    await checkClientFunctions(db),
  ];
}
