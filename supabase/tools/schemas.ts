/**
 * supabase/schemas: one file per module with the current definition of each of its functions,
 * triggers, policies and views (docs/architecture.md, "Rules written once"). This module reads
 * them, applies them, and (re)writes them from a migrated database.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db, Sql } from '../local/db.ts';
import { listMigrations, migrationsDir } from '../local/migrate.ts';
import type { Catalog, CatalogEntry } from './catalog.ts';
import { objectOf, splitStatements, type Statement } from './sql.ts';

export const schemasDir = join(migrationsDir, '..', 'schemas');

export interface SchemaStatement extends Statement {
  file: string;
  /** The object it belongs to (see sql.ts objectOf). */
  object: string;
}

export interface SchemaFile {
  name: string;
  text: string;
  statements: SchemaStatement[];
}

export class SchemaFileError extends Error {}

export function readSchemas(dir = schemasDir): SchemaFile[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((name) => {
      const text = readFileSync(join(dir, name), 'utf8');
      const statements = splitStatements(text).map((statement) => {
        const object = objectOf(statement.code);
        if (!object) {
          throw new SchemaFileError(
            `supabase/schemas/${name}: only functions, triggers, policies, views and their grants belong here; ` +
              `move this to a migration: ${statement.code.slice(0, 120)}`,
          );
        }
        return { ...statement, file: name, object };
      });
      return { name, text, statements };
    });
}

/** Applies every schema file, in name order, in one transaction. */
export async function applySchemas(db: Db, files: SchemaFile[] = readSchemas()): Promise<void> {
  await db.transaction(async (tx) => {
    for (const file of files) {
      try {
        await tx.exec(file.text);
      } catch (error) {
        throw new SchemaFileError(`supabase/schemas/${file.name} failed: ${(error as Error).message}`);
      }
    }
  });
}

/** The objects the schema files declare, with the file declaring each. */
export function declaredObjects(files: SchemaFile[]): Map<string, string> {
  const declared = new Map<string, string>();
  for (const file of files) {
    for (const statement of file.statements) {
      const other = declared.get(statement.object);
      if (other && other !== file.name) {
        throw new SchemaFileError(`${statement.object} is declared in both ${other} and ${file.name}`);
      }
      declared.set(statement.object, file.name);
    }
  }
  return declared;
}

/** Which module (file) an object belongs to when it is not declared anywhere yet. */
export function moduleOf(entry: CatalogEntry): string {
  const name = entry.object.replace(/^\w+ /, '');
  if (entry.object.startsWith('policy ')) return 'rls.sql';
  if (entry.object.startsWith('trigger ')) return name.startsWith('auth.users.') ? 'accounts.sql' : 'rules.sql';
  const fn = name.split('.').pop() ?? '';
  const table: [RegExp, string][] = [
    [/^sync_pull/, 'sync_pull.sql'],
    [/^sync_(push|push_one)$/, 'sync_push.sql'],
    [/^sync_(apply_event|apply_series|insert_series)$/, 'sync_apply_calendar.sql'],
    [/^sync_(apply|insert_allowed)/, 'sync_apply.sql'],
    [/^sync_(bool|opt_uuid|reminder|theme|text|text_array|time|created_at|uuid)$/, 'sync_args.sql'],
    [/^(time_poll|time_slot|poll_pick|poll_remove_slot|invitation_answer)/, 'time_polls.sql'],
    [/^sync_/, 'sync_helpers.sql'],
    [/^(throttle|client_address)/, 'throttles.sql'],
    [/^(enqueue_mail|may_mail|queue_invitation_mail|setting|submit_contact_message)$/, 'mail.sql'],
    [/^(can_|is_directory_|viewable_directory_ids)/, 'rls.sql'],
    [/^(get_public_directory|set_directory_password|get_public_profile)$/, 'public_access.sql'],
    [
      /^(tier_of|my_tier|month_start_for|quota_month|set_subscription_tier|apply_tier|apply_billing_profile)$/,
      'plans.sql',
    ],
    [/^(billing_|apply_billing_event|queue_billing_mail)/, 'billing.sql'],
    [/^link_preview_/, 'link_previews.sql'],
    [
      /^(handle_|claim_username|sanitize_username|username_available|get_my_profile|update_my_profile|lock_account|confirmed_email)/,
      'accounts.sql',
    ],
    [/(_rules|_tombstone|_count|_guard_votes|^row_meta|^text_limits|^longest_)/, 'rules.sql'],
  ];
  return table.find(([pattern]) => pattern.test(fn))?.[1] ?? 'other.sql';
}

const HEADERS: Record<string, string> = {
  'accounts.sql': 'Accounts: sign-up (the profile trigger), usernames, the own profile, e-mail changes, locking.',
  'plans.sql': 'Plans: the subscription tier (billing webhook only) and the month that Free quotas count in.',
  'billing.sql': "Billing: the card provider's account data, its signed events applied, and the mail that follows.",
  'rules.sql':
    "Rules: what every table's rule triggers share (text limits, row metadata), and the rules of directories, members, links and profiles (docs/product.md: limits, quotas, roles). The calendar's, the polls' and the triggers themselves are in rules_*.sql.",
  'rules_calendar.sql':
    "Rules of the calendar's rows (docs/product.md): all-day items, series (Pro, at most 1,000 occurrences) and the Free month's 10 events.",
  'rules_polls.sql':
    "Rules of the polls and their votes: a vote counted once under the poll's lock, the counts no client writes, a poll's fields and quotas.",
  'rules_time_polls.sql':
    "Rules of 'Find a time' polls: the slots checked and labelled, one answers row per voter, the counts recounted from the answers.",
  'rules_triggers.sql':
    'The rule triggers of each table, in the order they run: t05 text limits, t10 row metadata, t15 guards, t20 rules, t30 what follows.',
  'rls.sql': 'Row-level security: who sees and changes which rows, and the helpers the policies call.',
  'public_access.sql': 'Public access: public directories (passwords, unlocking) and public profiles.',
  'sync_helpers.sql':
    'Sync internals: who owns the directories an answer names, rejections (their code, their message, the rows a mutation touches), the idempotency record and its retention.',
  'sync_args.sql':
    "Sync argument readers: each mutation's arguments read from its JSON, refused (invalid) when missing or of the wrong shape.",
  'sync_apply.sql':
    "Sync apply: the dispatcher and one function per mutation family, run as the caller (RLS and rule triggers apply). The calendar's families are in sync_apply_calendar.sql.",
  'sync_apply_calendar.sql':
    "Sync apply, the calendar's families: events, tasks and occurrences, and whole series, run as the caller.",
  'time_polls.sql': "'Find a time' polls as their creator and their invitees act on them: remove a slot, pick, answer.",
  'sync_push.sql': 'Sync push: the envelope, and one mutation in its own savepoint, recorded once.',
  'sync_pull.sql': 'Sync pull: changes since a cursor, for what the caller may see.',
  'throttles.sql': 'Throttles: attempts per bucket and subject, kept in PostgreSQL.',
  'link_previews.sql': "Link previews: what the function that reads a saved link's page asks of the database.",
  'mail.sql':
    'Mail: who may be mailed, the invitation mail, the queue (public.outgoing_mail) and its delivery, contact messages. The mail that follows a row is in mail_calendar.sql.',
  'mail_calendar.sql':
    "Mail that follows a row: a new member's invitation, 'Event Created', 'Recurring Event Created' and a pick's time, queued in the row's savepoint.",
  'other.sql': 'Objects not yet sorted into a module.',
};

/** Each object's last `create` statement in the migrations (and the comment right above it). */
export function migrationSources(): Map<string, Statement> {
  const sources = new Map<string, Statement>();
  for (const file of listMigrations()) {
    for (const statement of splitStatements(readFileSync(file.path, 'utf8'))) {
      const object = objectOf(statement.code);
      if (object && /^create\b/i.test(statement.code)) sources.set(object, statement);
    }
  }
  return sources;
}

function fromSource(entry: CatalogEntry, source: Statement | undefined): string | null {
  if (!source) return null;
  let code = source.code;
  if (entry.object.startsWith('function ')) code = code.replace(/^create\s+function\b/i, 'create or replace function');
  else if (entry.object.startsWith('trigger ')) {
    if (/^create\s+constraint/i.test(code)) return null;
    code = code.replace(/^create\s+trigger\b/i, 'create or replace trigger');
  } else if (entry.object.startsWith('policy ')) code = `${entry.drop}\n${code}`;
  else if (entry.object.startsWith('view ')) code = code.replace(/^create\s+view\b/i, 'create or replace view');
  return code;
}

export interface WriteOptions {
  /** Objects that must be written from the catalog (their migration text does not recreate them). */
  fromCatalog?: Set<string>;
  dir?: string;
}

/**
 * Writes supabase/schemas from a migrated database's catalog: every object in the module file
 * that declares it today (else by moduleOf), with its migration text where that text still
 * defines it, else the catalog's, and its privileges. Returns the files written.
 */
export function writeSchemas(catalog: Catalog, options: WriteOptions = {}): string[] {
  const dir = options.dir ?? schemasDir;
  const existing = (() => {
    try {
      return declaredObjects(readSchemas(dir));
    } catch {
      return new Map<string, string>();
    }
  })();
  const sources = migrationSources();
  const byFile = new Map<string, Map<string, CatalogEntry[]>>();
  for (const entry of catalog.values()) {
    const file = existing.get(entry.object) ?? moduleOf(entry);
    const objects = byFile.get(file) ?? new Map<string, CatalogEntry[]>();
    objects.set(entry.object, [...(objects.get(entry.object) ?? []), entry]);
    byFile.set(file, objects);
  }
  const written: string[] = [];
  for (const [file, objects] of [...byFile].sort(([a], [b]) => a.localeCompare(b))) {
    const parts = [
      `-- ${HEADERS[file] ?? file}`,
      '--',
      '-- The current definitions (docs/architecture.md, "Rules written once"): edit here, then run',
      '-- `npm run db:diff` to write the migration. Tables, columns and data changes stay in migrations.',
    ];
    for (const [object, entries] of objects) {
      const source = options.fromCatalog?.has(object) || entries.length > 1 ? undefined : sources.get(object);
      const text = entries.length === 1 ? fromSource(entries[0]!, source) : null;
      const comment = text && source?.comment ? `${source.comment}\n` : '';
      const body = text ?? entries.map((entry) => entry.sql).join('\n\n');
      const grants = entries
        .map((entry) => entry.grants)
        .filter(Boolean)
        .join('\n');
      parts.push('', `${comment}${body.trim()}${grants ? `\n${grants}` : ''}`);
    }
    writeFileSync(join(dir, file), `${parts.join('\n')}\n`);
    written.push(file);
  }
  return written;
}

/** The statements of the given objects, in schema-file order, as one script. */
export function statementsOf(files: SchemaFile[], objects: Set<string>): string {
  const out: string[] = [];
  for (const file of files) {
    const mine = file.statements.filter((statement) => objects.has(statement.object));
    if (mine.length === 0) continue;
    out.push(`-- supabase/schemas/${file.name}`);
    let last = '';
    for (const statement of mine) {
      if (statement.object !== last && out.length > 1) out.push('');
      last = statement.object;
      out.push(`${statement.comment ? `${statement.comment}\n` : ''}${statement.code}`);
    }
    out.push('');
  }
  return out.join('\n');
}

export type { Sql };
