/**
 * How a synced table is declared (synced-tables.ts holds the declarations): the columns every table
 * has, who may see a row, how losing access reaches it, and the two checks made from its fields.
 */
import * as v from 'valibot';

/** The columns every synced table has on the server (docs/sync-protocol.md, Sync contract). */
export const base = {
  id: v.string(),
  created_at: v.string(),
  updated_at: v.string(),
  /** Never set on a stored row: a pulled tombstone deletes the local row. */
  deleted_at: v.optional(v.nullable(v.string())),
  /** The server's writing transaction; absent on an optimistic row. */
  txid: v.optional(v.nullable(v.string())),
};

export const text = v.string();
export const nullableText = v.nullable(v.string());

/**
 * Who can see a table's rows: a row is visible when any of the named columns says so. The
 * server's pull (`private.sync_pull_page`, generated from this by `npm run db:registry`) reads
 * exactly this; row-level security and the push's rules still decide every write.
 */
export interface Visibility {
  /** The column holding the user's id: the user's own rows. */
  own?: string;
  /**
   * The column naming the directory the row sits in: visible to the directory's owner and live
   * members, and sent again whole when the directory becomes visible (a new invitation).
   */
  directory?: string;
  /** The column holding an e-mail address: visible to the user whose confirmed address it is. */
  email?: string;
  /** The column whose null marks a public row (a public poll). */
  publicWhenNull?: string;
  /** The row carries its directory owner's plan (`owner_tier`), and is sent again when that plan changes. */
  ownerTier?: true;
}

export interface SyncedTableSpec<E extends v.ObjectEntries = v.ObjectEntries> {
  /** Primary key (Dexie's first store entry); always `id` today. */
  key: 'id';
  /** Dexie secondary indexes (what the client queries by; '[a+b]' is a compound index). */
  indexes: readonly string[];
  /** Fields whose row count per value the client keeps (index-counts.ts): what screens count by. */
  counted?: readonly string[];
  /**
   * Counted fields whose rows arriving at or leaving a value are counted too (index-counts.ts
   * movesKey): a screen that keeps places in that value's order checks them by it (link-anchors.ts).
   */
  moves?: readonly string[];
  /**
   * Keys the client derives from each stored row and indexes (never columns, never sent or
   * exported; local-keys.ts): their fields, and the Dexie indexes over them.
   */
  local?: { fields: readonly string[]; indexes: readonly string[] };
  /** The row's fields: the checks on a pulled row and, through rows.ts, its TypeScript type. */
  fields: E;
  /** Fields that are not columns of the server's table (computed by sync_pull, or local only). */
  notColumns?: readonly string[];
  visibleTo: Readonly<Visibility>;
  /**
   * How losing access (a purge, a tombstone, a delete) reaches the table: 'root' for the
   * directory itself, `{ with, by }` when its rows go with the parent row named in column `by`
   * of table `with`, 'never' when the table is never purged (the user's own rows).
   */
  purge: 'root' | { with: string; by: string } | 'never';
  /**
   * Columns that group rows a mutation may target as a set (a series, a directory's content);
   * a written row's values there are noted for the rebase (src/sync/rebase.ts).
   */
  groups?: readonly string[];
}

/**
 * A table's declaration with its two checks: `schema` (exactly the declared fields: the row
 * type) and `wire` (declared fields typed, other keys kept, for a row as the server sends it:
 * a column added on the server before the client knows it must not fail the pull).
 */
export function table<E extends v.ObjectEntries>(spec: SyncedTableSpec<E>) {
  return { ...spec, schema: v.object(spec.fields), wire: v.looseObject(spec.fields) };
}
