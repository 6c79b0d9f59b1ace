/**
 * The one declaration of every synced table (docs/architecture.md "Adding a
 * synced table"). Everything the client keeps per table is derived from here: the row types
 * (rows.ts), the Dexie schema (db.ts), which tables a pull or a push answer writes, how a
 * pulled row is checked, what a lost directory takes with it, and what clear-on-reset empties.
 * tests/db/synced-tables.test.ts fails when the server knows a table this list does not (or the
 * other way round), or when a declared field is not a column.
 */
import * as v from 'valibot';
import { CALENDAR_KEY_FIELDS } from './calendar-index.ts';
import { LINK_KEY_FIELDS } from './link-index.ts';
import {
  directoryColors,
  memberRoles,
  priorities,
  recurrenceRules,
  invitationStatuses,
  reminderOffsets,
  slotAnswers,
  themeChoices,
} from '../domain/validation.ts';

import { base, nullableText, table, text, type SyncedTableSpec } from './synced-table-spec.ts';

export type { SyncedTableSpec, Visibility } from './synced-table-spec.ts';

/** In dependency order: a table's purge parent comes before it. */
export const syncedTables = {
  user_profiles: table({
    key: 'id',
    indexes: [],
    fields: {
      ...base,
      email: nullableText,
      full_name: text,
      username: nullableText,
      bio: text,
      subscription_tier: v.picklist(['free', 'pro', 'team']),
      time_zone: text,
      /** The reminder new events and tasks get, in minutes before they start; null: none. */
      default_reminder_minutes: v.optional(v.nullable(v.picklist(reminderOffsets))),
      /** Light, dark, or follow the system (absent on rows from before themes: system). */
      theme: v.optional(v.picklist(themeChoices)),
      /** The paid subscription's cycle (the Upgrade page opens on it); null on Free. Set by billing only. */
      billing_cycle: v.optional(v.nullable(v.picklist(['monthly', 'yearly']))),
      /** When the period paid for ends (renews, or ends the plan when cancelling), an instant; null on Free. */
      plan_period_end: v.optional(v.nullable(text)),
      /** Cancelled: the plan ends at plan_period_end instead of renewing. */
      plan_cancel_at_period_end: v.optional(v.boolean()),
    },
    visibleTo: { own: 'id' },
    purge: 'never',
  }),
  link_directories: table({
    key: 'id',
    indexes: ['owner_id'],
    fields: {
      ...base,
      name: text,
      description: nullableText,
      color: v.picklist(directoryColors),
      is_public: v.boolean(),
      has_password: v.boolean(),
      owner_id: text,
      /** The owner's plan (free, pro, team), sent by the server with a directory shared with the user. */
      owner_tier: v.optional(v.string()),
    },
    notColumns: ['owner_tier'],
    visibleTo: { directory: 'id', ownerTier: true },
    purge: 'root',
  }),
  saved_links: table({
    key: 'id',
    // [directory_id+created_at+id]: a directory's links newest first, a window at a time, and
    // one link's place in that order named by its key (link-window.ts anchors); also every read
    // of a directory's links (whereGroup in group-range.ts: no index on directory_id alone, each
    // index costs every pulled row).
    // owner_id is counted (the plan's limit, the dashboard) but not indexed: nothing reads the
    // rows by owner, and each index costs every pulled row (12% of a first pull's writes).
    // broken_at: only broken links have one, so the 'Broken links' filter reads only them.
    // updated_at: the palette's most recently changed links, with nothing typed.
    indexes: ['[directory_id+created_at+id]', 'broken_at', 'updated_at'],
    // _urlKey: the link's identity, what a URL typed in Add Link is looked up by; _words: the
    // search's token index (link-index.ts).
    local: { fields: LINK_KEY_FIELDS, indexes: ['_urlKey', '*_words'] },
    counted: ['directory_id', 'owner_id'],
    moves: ['directory_id'],
    fields: {
      ...base,
      directory_id: text,
      url: text,
      title: text,
      notes: nullableText,
      description: nullableText,
      tags: v.array(v.string()),
      is_favorite: v.boolean(),
      created_by: nullableText,
      owner_id: text,
      // What the server read of the page (docs/architecture.md, Link previews); only the server
      // writes them, and rows of older apps lack them.
      site_name: v.optional(nullableText),
      icon_url: v.optional(nullableText),
      image_url: v.optional(nullableText),
      preview_state: v.optional(v.nullable(v.picklist(['done', 'failed']))),
      previewed_at: v.optional(nullableText),
      /** When the broken-link check found the page gone; null while it answers. */
      broken_at: v.optional(nullableText),
    },
    visibleTo: { directory: 'directory_id' },
    purge: { with: 'link_directories', by: 'directory_id' },
    groups: ['directory_id'],
  }),
  directory_members: table({
    key: 'id',
    indexes: ['directory_id', 'user_email'],
    fields: {
      ...base,
      directory_id: text,
      user_email: text,
      role: v.picklist(memberRoles),
      inviter_id: nullableText,
    },
    visibleTo: { directory: 'directory_id', email: 'user_email' },
    purge: { with: 'link_directories', by: 'directory_id' },
    groups: ['directory_id'],
  }),
  calendar_events: table({
    key: 'id',
    indexes: ['series_id', 'starts_at', 'owner_id'],
    local: { fields: CALENDAR_KEY_FIELDS, indexes: ['[_kind+_at]', '_evOver', '_evMade', '_done', '*_long'] },
    counted: ['_kind'],
    fields: {
      ...base,
      title: text,
      description: nullableText,
      starts_at: nullableText,
      ends_at: nullableText,
      owner_id: text,
      is_task: v.boolean(),
      priority: v.nullable(v.picklist(priorities)),
      is_completed: v.boolean(),
      series_id: nullableText,
      recurrence_rule: v.picklist(['none', ...recurrenceRules]),
      recurrence_end_date: nullableText,
      /** Minutes before the start that a reminder fires; null: none (absent on rows of older apps). */
      reminder_minutes: v.optional(v.nullable(v.picklist(reminderOffsets))),
      /** Whole days from the local midnight of starts_at (absent on rows of older apps: false). */
      all_day: v.optional(v.boolean()),
    },
    visibleTo: { own: 'owner_id' },
    purge: 'never',
    groups: ['series_id'],
  }),
  voting_posts: table({
    key: 'id',
    indexes: ['directory_id', 'created_by_id'],
    fields: {
      ...base,
      title: text,
      description: nullableText,
      /**
       * A choice poll's options, or a time poll's slots (docs/product.md, Find a time): each slot has
       * its id, start and minutes or a day, and its Yes and If need be counts (votes is the Yes count).
       */
      options: v.array(
        v.object({
          text: v.string(),
          votes: v.number(),
          id: v.optional(v.string()),
          start: v.optional(nullableText),
          minutes: v.optional(v.nullable(v.number())),
          day: v.optional(nullableText),
          yes: v.optional(v.number()),
          maybe: v.optional(v.number()),
        }),
      ),
      deadline: nullableText,
      directory_id: nullableText,
      /** The creator's username (null without one), never an address; who created it is created_by_id. */
      created_by: nullableText,
      created_by_id: text,
      is_active: v.boolean(),
      /** 'choice' or 'time' (absent on rows of older apps: choice). */
      kind: v.optional(v.picklist(['choice', 'time'])),
      /** A time poll's creator's zone. */
      time_zone: v.optional(nullableText),
      /** The slot the creator picked, and the creator's event made from it. */
      picked_slot_id: v.optional(nullableText),
      picked_event_id: v.optional(nullableText),
      pick_count: v.optional(v.number()),
      /** Local only: ids of pending votes already counted into `options` (so a rebase counts each once). */
      local_votes: v.optional(v.array(v.string())),
    },
    notColumns: ['local_votes'],
    visibleTo: { directory: 'directory_id', publicWhenNull: 'directory_id' },
    purge: { with: 'link_directories', by: 'directory_id' },
    groups: ['directory_id'],
  }),
  user_votes: table({
    key: 'id',
    indexes: ['post_id', 'user_id'],
    fields: {
      ...base,
      post_id: text,
      option_index: v.number(),
      user_email: nullableText,
      user_id: text,
    },
    visibleTo: { own: 'user_id' },
    purge: { with: 'voting_posts', by: 'post_id' },
    groups: ['post_id'],
  }),
  /** A voter's answers to a time poll's slots: one row per poll and voter. */
  slot_answers: table({
    key: 'id',
    indexes: ['post_id', '[post_id+user_id]'],
    fields: {
      ...base,
      post_id: text,
      user_id: text,
      directory_id: nullableText,
      /** The voter's username, else full name; never an address. */
      voter_name: nullableText,
      /** Slot id → 'yes', 'maybe' or 'no'. */
      answers: v.record(v.string(), v.picklist(slotAnswers)),
      /** Local only: the answers the server holds, under an optimistic row (its counts include them). */
      local_base: v.optional(v.record(v.string(), v.picklist(slotAnswers))),
    },
    notColumns: ['local_base'],
    // A team poll's answers are seen by the directory's people (the grid); a public poll's by the voter.
    visibleTo: { own: 'user_id', directory: 'directory_id' },
    purge: { with: 'voting_posts', by: 'post_id' },
    groups: ['post_id'],
  }),
  /** A picked time offered to a person who could come: pending, accepted (event_id) or declined. */
  event_invitations: table({
    key: 'id',
    indexes: ['post_id', 'status'],
    fields: {
      ...base,
      post_id: nullableText,
      user_id: text,
      inviter_name: nullableText,
      title: text,
      description: nullableText,
      starts_at: text,
      ends_at: text,
      all_day: v.boolean(),
      status: v.picklist(invitationStatuses),
      event_id: nullableText,
    },
    visibleTo: { own: 'user_id' },
    purge: 'never',
  }),
};

export type SyncedTables = typeof syncedTables;
export type SyncedTableName = keyof SyncedTables;

/** The stored row of a table: its fields' output types (a plain object schema, so extra keys are not in the type). */
export type RowOf<N extends SyncedTableName> = v.InferOutput<SyncedTables[N]['schema']>;

export const syncedTableNames = Object.keys(syncedTables) as SyncedTableName[];

export function isSyncedTableName(name: string): name is SyncedTableName {
  return Object.hasOwn(syncedTables, name);
}

/** The Dexie stores of the synced tables ('id, owner_id', ...). */
export function dexieStores(): Record<SyncedTableName, string> {
  const stores = {} as Record<SyncedTableName, string>;
  for (const name of syncedTableNames) {
    const spec: SyncedTableSpec = syncedTables[name];
    stores[name] = [spec.key, ...spec.indexes, ...(spec.local?.indexes ?? [])].join(', ');
  }
  return stores;
}

/** The local keys (never columns) a stored row of `name` carries besides its fields. */
export function localFields(name: SyncedTableName): readonly string[] {
  const spec: SyncedTableSpec = syncedTables[name];
  return spec.local?.fields ?? [];
}

/** The counted fields per table (index-counts.ts). */
export function countedIndexes(): Record<string, readonly string[]> {
  return specsBy((spec) => spec.counted);
}

/** The fields per table whose moves are counted (index-counts.ts movesKey). */
export function movedIndexes(): Record<string, readonly string[]> {
  return specsBy((spec) => spec.moves);
}

function specsBy(pick: (spec: SyncedTableSpec) => readonly string[] | undefined): Record<string, readonly string[]> {
  const picked: Record<string, readonly string[]> = {};
  for (const name of syncedTableNames) {
    const fields = pick(syncedTables[name]);
    if (fields) picked[name] = fields;
  }
  return picked;
}

export class InvalidRowError extends Error {
  constructor(
    readonly table: string,
    readonly issues: string,
  ) {
    super(`The server sent an invalid ${table} row: ${issues}`);
    this.name = 'InvalidRowError';
  }
}

/** Checks rows of `table` as received; throws an InvalidRowError naming the first bad field. */
export function checkRows<N extends SyncedTableName>(table: N, rows: readonly unknown[]): RowOf<N>[] {
  const schema: v.GenericSchema = syncedTables[table].wire;
  return rows.map((row) => {
    const result = v.safeParse(schema, row);
    if (!result.success) throw new InvalidRowError(table, describeIssues(result.issues));
    // The input, not the output: the check changes nothing of what is stored.
    return row as RowOf<N>;
  });
}

/** 'field: message' of the first issues of a failed check. */
export function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => `${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`)
    .join('; ');
}

/** The tables whose rows go with a row of `parent`, and the column naming it. */
export function childrenOf(parent: SyncedTableName): { table: SyncedTableName; by: string }[] {
  const out: { table: SyncedTableName; by: string }[] = [];
  for (const name of syncedTableNames) {
    const purge: SyncedTableSpec['purge'] = syncedTables[name].purge;
    if (typeof purge === 'object' && purge.with === parent) out.push({ table: name, by: purge.by });
  }
  return out;
}

/** Columns of `table` whose values group rows for the rebase. */
export function groupsOf(table: SyncedTableName): readonly string[] {
  const spec: SyncedTableSpec = syncedTables[table];
  return spec.groups ?? [];
}
