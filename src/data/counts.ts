/** Counts that screens and mutators share (plain Dexie reads: the worker runs the mutators, without React). */
import type { LinkboardDb } from './db.ts';
import { countKey, countKeyRange } from './index-counts.ts';

/**
 * How many polls the user created since `since` (epoch ms; public and team, hidden ones too), through
 * the created_by_id index: the Free quota as the server counts it (docs/product.md, Plans and limits), for the board's
 * Create Poll, the dashboard's stat and the poll.create mutator.
 */
export function countPollsCreatedSince(db: LinkboardDb, userId: string, since: number): Promise<number> {
  return db.voting_posts
    .where('created_by_id')
    .equals(userId)
    .filter((poll) => Date.parse(poll.created_at) >= since)
    .count();
}

/** How many local rows of `table` have `index` = `value`, from the counts store (index-counts.ts). */
export async function keptCount(db: LinkboardDb, table: string, index: string, value: string): Promise<number> {
  return (await db.counts.get(countKey(table, index, value)))?.n ?? 0;
}

/** Every kept count of `table` by `index`, by value. */
export async function keptCounts(db: LinkboardDb, table: string, index: string): Promise<Map<string, number>> {
  const { lower, upper } = countKeyRange(table, index);
  const rows = await db.counts.where('key').between(lower, upper, true, true).toArray();
  return new Map(rows.map((row) => [row.key.slice(lower.length), row.n]));
}
