/**
 * What the Voting board and a directory's Team Polls panel read (docs/product.md, Links screen; Polls): the polls shown,
 * newest first, with the user's own vote on each, in one live read so a vote and its count change
 * together. Only the rows shown are read, each through an index.
 *
 * Public polls are the ones whose directory_id is null, and IndexedDB leaves a row out of an index
 * when its key is null, so no index finds them directly. They are found as a difference of keys:
 * every primary key of voting_posts (a key-only read) minus the keys the directory_id index holds
 * (team polls, key-only too); then only the public rows themselves are read (bulkGet). No team
 * poll's row is loaded or parsed. A store of its own or a sentinel 'public' key would avoid the
 * key lists, but both need a Dexie version and a change to the synced table's declaration.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback } from 'react';
import { countPollsCreatedSince } from '../counts.ts';
import type { LinkboardDb } from '../db.ts';
import type { PollRow, VoteRow } from '../rows.ts';
import type { PendingWrite } from '../pending-writes.ts';
import { newestFirst, newestFirstOrder } from './directories.ts';
import { overlay, readSince, useWithPending } from './live-rows.ts';

export interface PollsWithVotes {
  /** The active polls (is_active not false), newest first. */
  polls: PollRow[];
  /** The user's vote on each poll they voted on, by poll id. */
  myVotes: ReadonlyMap<string, VoteRow>;
}

/** Ids of the polls in no directory (see the file's comment). */
async function publicPollIds(db: LinkboardDb): Promise<string[]> {
  const [all, inDirectories] = await Promise.all([
    db.voting_posts.toCollection().primaryKeys(),
    db.voting_posts.orderBy('directory_id').primaryKeys(),
  ]);
  const team = new Set(inDirectories);
  return all.filter((id) => !team.has(id));
}

/** The public polls, or one directory's when `directoryId` is given. */
export async function readPolls(db: LinkboardDb, directoryId?: string): Promise<PollRow[]> {
  const rows =
    directoryId === undefined
      ? (await db.voting_posts.bulkGet(await publicPollIds(db))).filter((row) => row !== undefined)
      : await db.voting_posts.where('directory_id').equals(directoryId).toArray();
  return newestFirst(rows.filter((poll) => poll.is_active !== false));
}

/**
 * The user's votes on `polls`, through the post_id index. Only the user's own votes are synced
 * (the others' reach a poll as its counts), but the user_id check keeps that an explicit rule.
 */
export async function readMyVotes(db: LinkboardDb, polls: readonly PollRow[]): Promise<Map<string, VoteRow>> {
  if (polls.length === 0) return new Map();
  const votes = await db.user_votes
    .where('post_id')
    .anyOf(polls.map((poll) => poll.id))
    .filter((vote) => vote.user_id === db.userId)
    .toArray();
  return new Map(votes.map((vote) => [vote.post_id, vote]));
}

/**
 * `read` with the pending writes applied (live-rows.ts): a vote shows its results, and a new
 * or closed poll its place, before IndexedDB has committed them.
 */
export function pollsWithPending(
  read: PollsWithVotes,
  pending: (table: 'voting_posts' | 'user_votes') => readonly PendingWrite[],
  userId: string,
  directoryId?: string,
): PollsWithVotes {
  const polls = overlay<PollRow>(read.polls, pending('voting_posts'), {
    belongs: (poll) => (poll.directory_id ?? undefined) === directoryId && poll.is_active !== false,
    compare: newestFirstOrder,
  });
  const votes = pending('user_votes');
  if (votes.length === 0) return polls === read.polls ? read : { polls, myVotes: read.myVotes };
  const myVotes = new Map(read.myVotes);
  for (const { key, row } of votes) {
    const vote = row as VoteRow | null;
    for (const [post, held] of myVotes) if (held.id === key) myVotes.delete(post);
    if (vote && vote.user_id === userId) myVotes.set(vote.post_id, vote);
  }
  return { polls, myVotes };
}

/** Public polls when `directoryId` is omitted, else that directory's team polls. Undefined while loading. */
export function usePollsWithVotes(db: LinkboardDb, directoryId?: string): PollsWithVotes | undefined {
  const live = useLiveQuery(
    () =>
      readSince(db, async () => {
        const polls = await readPolls(db, directoryId);
        return { polls, myVotes: await readMyVotes(db, polls) };
      }),
    [db, directoryId],
  );
  const apply = useCallback(
    (read: PollsWithVotes, pending: (table: 'voting_posts' | 'user_votes') => readonly PendingWrite[]) =>
      pollsWithPending(read, pending, db.userId, directoryId),
    [db, directoryId],
  );
  return useWithPending(db, live, apply);
}

/**
 * How many polls the user created at or after `since` (an instant), public and team alike: the
 * Free quota as the server counts it (docs/product.md, Plans and limits), through the created_by_id index.
 */
export function usePollsCreatedSince(db: LinkboardDb, since: Date): number | undefined {
  const from = since.getTime();
  return useLiveQuery(() => countPollsCreatedSince(db, db.userId, from), [db, from]);
}
