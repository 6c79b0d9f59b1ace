import { useLiveQuery } from 'dexie-react-hooks';
import type { LinkboardDb } from '../db.ts';
import type { PollRow, VoteRow } from '../rows.ts';
import { newestFirst } from './directories.ts';

/** Public polls (no directory) when `directoryId` is omitted, else that directory's team polls; newest first. */
export function usePolls(db: LinkboardDb, directoryId?: string): PollRow[] | undefined {
  return useLiveQuery(
    () =>
      (directoryId === undefined
        ? db.voting_posts.filter((poll) => poll.directory_id === null).toArray()
        : db.voting_posts.where('directory_id').equals(directoryId).toArray()
      ).then((rows) => newestFirst(rows.filter((poll) => poll.is_active !== false))),
    [db, directoryId],
  );
}

export function useMyVotes(db: LinkboardDb): VoteRow[] | undefined {
  return useLiveQuery(() => db.user_votes.where('user_id').equals(db.userId).toArray(), [db]);
}
