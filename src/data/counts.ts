/** Counts that screens and mutators share (plain Dexie reads: the worker runs the mutators, without React). */
import type { LinkboardDb } from './db.ts';

/**
 * How many polls the user created since `since` (epoch ms; public and team, hidden ones too), through
 * the created_by_id index: the Free quota as the server counts it (design 4.3), for the board's
 * Create Poll, the dashboard's stat and the poll.create mutator.
 */
export function countPollsCreatedSince(db: LinkboardDb, userId: string, since: number): Promise<number> {
  return db.voting_posts
    .where('created_by_id')
    .equals(userId)
    .filter((poll) => Date.parse(poll.created_at) >= since)
    .count();
}
