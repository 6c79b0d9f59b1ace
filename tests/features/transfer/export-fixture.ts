/** A small workspace in a fresh fake IndexedDB: what the export tests read. */
import type { LinkboardDb } from '../../../src/data/db.ts';
import type { ExportContext } from '../../../src/features/transfer/workspace-export.ts';
import { freshDb, NOW } from '../../data/helpers.ts';
import {
  makeDirectory,
  makeEvent,
  makeInvitation,
  makeLink,
  makeMember,
  makePoll,
  makeSlotAnswers,
  makeTimePoll,
  ME,
  OTHER,
} from '../../support/builders.ts';

export const EMAIL = 'me@example.com';
export const ZONE = 'Europe/Berlin';
export const exportCtx = (now = NOW): ExportContext => ({ userId: ME, email: EMAIL, timeZone: ZONE, now: () => now });

const at = (iso: string) => ({ created_at: iso, updated_at: iso });

export const own = makeDirectory({
  name: 'Reading & <Research>',
  color: 'green',
  txid: '42',
  ...at('2026-01-01T00:00:00.000Z'),
});
export const empty = makeDirectory({ name: 'Empty', ...at('2026-01-02T00:00:00.000Z') });
export const shared = makeDirectory({
  name: 'Team',
  owner_id: OTHER,
  owner_tier: 'team',
  ...at('2026-01-03T00:00:00.000Z'),
});
export const sharedNoRole = makeDirectory({ name: 'Side project', owner_id: OTHER, ...at('2026-01-04T00:00:00.000Z') });

export const older = makeLink({
  directory_id: own.id,
  url: 'https://example.com/a?x=1&y="2"',
  title: 'Older, "quoted"',
  notes: 'First line\nsecond line',
  tags: ['read', 'later'],
  is_favorite: true,
  txid: '43',
  ...at('2026-02-01T10:00:00.000Z'),
});
export const newer = makeLink({ directory_id: own.id, title: 'Newer', ...at('2026-02-02T10:00:00.000Z') });
export const teamLink = makeLink({
  directory_id: shared.id,
  url: 'https://team.example.com/',
  title: 'Team doc',
  description: 'From the team',
  owner_id: OTHER,
  created_by: OTHER,
  ...at('2026-02-03T10:00:00.000Z'),
});

export const invitation = makeMember({
  directory_id: own.id,
  user_email: 'friend@example.com',
  role: 'editor',
  inviter_id: ME,
});
export const myMembership = makeMember({ directory_id: shared.id, user_email: 'Me@Example.com', role: 'editor' });

export const meeting = makeEvent({ title: 'Meeting', description: 'https://meet.example.com/x', txid: '44' });
export const task = makeEvent({
  title: 'Pay rent',
  is_task: true,
  priority: 'high',
  starts_at: '2026-03-20T17:00:00.000Z',
  ends_at: null,
});
export const undatedTask = makeEvent({
  title: 'Someday',
  is_task: true,
  priority: 'low',
  starts_at: null,
  ends_at: null,
});
export const noStart = makeEvent({ title: 'No start', starts_at: null, ends_at: null });
/** A weekly series at 09:00 Berlin across the March DST change, its second occurrence deleted. */
export const series = ['2026-03-16T08:00:00.000Z', '2026-03-30T07:00:00.000Z', '2026-04-06T07:00:00.000Z'].map(
  (start, i) =>
    makeEvent({
      id: `20000000-0000-4000-8000-00000000000${i}`,
      title: 'Weekly',
      starts_at: start,
      ends_at: new Date(Date.parse(start) + 3_600_000).toISOString(),
      series_id: '30000000-0000-4000-8000-000000000001',
      recurrence_rule: 'weekly',
      recurrence_end_date: '2026-04-06T21:59:00.000Z', // 23:59 in Berlin, as stored
    }),
);
export const othersEvent = makeEvent({ title: 'Not mine', owner_id: OTHER });

export const myPoll = makePoll({
  title: 'Where?',
  directory_id: own.id,
  created_by: 'me',
  created_by_id: ME,
  options: [
    { text: 'Here', votes: 2 },
    { text: 'There', votes: 1 },
  ],
  local_votes: ['pending-vote'],
});
export const othersPoll = makePoll({ title: 'Lunch?' });

export const myVote = {
  id: '40000000-0000-4000-8000-000000000001',
  post_id: othersPoll.id,
  option_index: 1,
  user_email: EMAIL,
  user_id: ME,
  txid: '45',
  ...at('2026-03-02T00:00:00.000Z'),
};
export const orphanVote = { ...myVote, id: '40000000-0000-4000-8000-000000000002', post_id: 'gone', option_index: 0 };
export const othersVote = { ...myVote, id: '40000000-0000-4000-8000-000000000003', user_id: OTHER };

/** Another user's time poll, answered by the user (slots out of order, one no longer in the poll) and by the other. */
export const timePoll = makeTimePoll({ ...at('2026-03-01T00:00:00.000Z') });
export const myAnswers = makeSlotAnswers({
  post_id: timePoll.id,
  answers: { 'slot-3': 'no', gone: 'yes', 'slot-1': 'maybe', 'slot-2': 'yes' },
  ...at('2026-03-03T00:00:00.000Z'),
});
export const orphanAnswers = makeSlotAnswers({
  post_id: 'gone',
  answers: { x: 'yes' },
  ...at('2026-03-04T00:00:00.000Z'),
});
export const othersAnswers = makeSlotAnswers({ post_id: timePoll.id, user_id: OTHER, voter_name: 'other' });
export const myInvite = makeInvitation({ post_id: timePoll.id, status: 'accepted', event_id: meeting.id });

export const profile = {
  id: ME,
  email: 'old@example.com',
  full_name: 'Me Myself',
  username: 'me',
  bio: 'Hello',
  subscription_tier: 'pro' as const,
  time_zone: ZONE,
  txid: '46',
  ...at('2026-01-01T00:00:00.000Z'),
};

/** A database holding all of the above. */
export async function seededDb(): Promise<LinkboardDb> {
  const db = freshDb();
  await db.user_profiles.put(profile);
  await db.link_directories.bulkPut([sharedNoRole, shared, empty, own]);
  await db.saved_links.bulkPut([older, teamLink, newer]);
  await db.directory_members.bulkPut([invitation, myMembership]);
  await db.calendar_events.bulkPut([othersEvent, noStart, ...series, undatedTask, task, meeting]);
  await db.voting_posts.bulkPut([myPoll, othersPoll]);
  await db.user_votes.bulkPut([myVote, orphanVote, othersVote]);
  await db.voting_posts.put(timePoll);
  await db.slot_answers.bulkPut([orphanAnswers, othersAnswers, myAnswers]);
  await db.event_invitations.put(myInvite);
  return db;
}
