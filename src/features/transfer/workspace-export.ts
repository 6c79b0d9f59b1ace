/**
 * The user's whole workspace as one JSON document, made on the device from
 * IndexedDB so it works offline, and read back for the importer. Every table is read whole in
 * one read-only transaction (a consistent snapshot, and one bulk read per table: 10,000 links
 * export well under a second); the rows are then grouped in memory and copied field by field
 * into the file's records (export-records.ts).
 */
import * as v from 'valibot';
import type { LinkboardDb } from '../../data/db.ts';
import type {
  DirectoryRow,
  EventRow,
  InvitationRow,
  LinkRow,
  MemberRow,
  PollRow,
  SlotAnswersRow,
  UserProfileRow,
  VoteRow,
} from '../../data/rows.ts';
import { describeIssues } from '../../data/synced-tables.ts';
import {
  answersOf,
  byCreated,
  byStart,
  directoryOf,
  eventOf,
  groupBy,
  invitationOf,
  memberOf,
  pollOf,
  profileOf,
  sharedDirectoryOf,
  voteOf,
} from './export-records.ts';
import {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  workspaceExportSchema,
  type WorkspaceExport,
} from './workspace-export-format.ts';

export type { WorkspaceExport } from './workspace-export-format.ts';

export interface ExportContext {
  userId: string;
  /** The signed-in account's address (what invitations name). */
  email: string;
  timeZone: string;
  now: () => Date;
}

export const NOT_AN_EXPORT = 'This file is not a Linkboard export.';
export const NEWER_EXPORT = 'This export was made by a newer version of Linkboard. Update the app to import it.';
export const DAMAGED_EXPORT = 'This export is damaged and cannot be imported.';

interface Snapshot {
  profiles: UserProfileRow[];
  directories: DirectoryRow[];
  links: LinkRow[];
  members: MemberRow[];
  events: EventRow[];
  polls: PollRow[];
  votes: VoteRow[];
  answers: SlotAnswersRow[];
  invitations: InvitationRow[];
}

/** Every table read whole, in one read-only transaction. */
function readSnapshot(db: LinkboardDb): Promise<Snapshot> {
  const tables = [
    db.user_profiles,
    db.link_directories,
    db.saved_links,
    db.directory_members,
    db.calendar_events,
    db.voting_posts,
    db.user_votes,
    db.slot_answers,
    db.event_invitations,
  ];
  return db.transaction('r', tables, async () => {
    const [profiles, directories, links, members, events, polls, votes, answers, invitations] = await Promise.all([
      db.user_profiles.toArray(),
      db.link_directories.toArray(),
      db.saved_links.toArray(),
      db.directory_members.toArray(),
      db.calendar_events.toArray(),
      db.voting_posts.toArray(),
      db.user_votes.toArray(),
      db.slot_answers.toArray(),
      db.event_invitations.toArray(),
    ]);
    return { profiles, directories, links, members, events, polls, votes, answers, invitations };
  });
}

/** The user's workspace as of now, from the local database. */
export async function buildWorkspaceExport(db: LinkboardDb, ctx: ExportContext): Promise<WorkspaceExport> {
  const snap = await readSnapshot(db);
  const me = ctx.userId;
  const email = ctx.email.toLowerCase();
  const linksByDirectory = groupBy(snap.links, (link) => link.directory_id);
  const linksOf = (directoryId: string) => linksByDirectory.get(directoryId) ?? [];
  const directories = [...snap.directories].sort(byCreated);
  const owned = directories.filter((dir) => dir.owner_id === me);
  const ownedIds = new Set(owned.map((dir) => dir.id));
  const myRoles = new Map(
    snap.members.filter((m) => m.user_email.toLowerCase() === email).map((m) => [m.directory_id, m.role]),
  );
  const pollsById = new Map(snap.polls.map((poll) => [poll.id, poll]));

  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exported_at: ctx.now().toISOString(),
    profile: profileOf(
      snap.profiles.find((row) => row.id === me),
      ctx,
    ),
    directories: owned.map((dir) => directoryOf(dir, linksOf(dir.id))),
    shared_directories: directories
      .filter((dir) => dir.owner_id !== me)
      .map((dir) => sharedDirectoryOf(dir, linksOf(dir.id), myRoles.get(dir.id) ?? null)),
    events: snap.events
      .filter((row) => row.owner_id === me)
      .sort(byStart)
      .map(eventOf),
    polls: snap.polls
      .filter((poll) => poll.created_by_id === me)
      .sort(byCreated)
      .map(pollOf),
    votes: snap.votes
      .filter((vote) => vote.user_id === me)
      .sort(byCreated)
      .map((vote) => voteOf(vote, pollsById.get(vote.post_id))),
    members: snap.members
      .filter((member) => ownedIds.has(member.directory_id))
      .sort(byCreated)
      .map(memberOf),
    // The user's own answers and invitations: a team poll's grid (others' answers) stays the others'.
    answers: snap.answers
      .filter((row) => row.user_id === me)
      .sort(byCreated)
      .map((row) => answersOf(row, pollsById.get(row.post_id))),
    invitations: snap.invitations
      .filter((row) => row.user_id === me)
      .sort(byCreated)
      .map(invitationOf),
  };
}

export type ParsedExport = { ok: true; value: WorkspaceExport } | { ok: false; error: string };

const header = v.looseObject({ format: v.literal(EXPORT_FORMAT), version: v.number() });

/** Reads an export file's text: its content, or a sentence saying why it cannot be imported. */
export function parseWorkspaceExport(text: string): ParsedExport {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, error: NOT_AN_EXPORT };
  }
  const head = v.safeParse(header, data);
  if (!head.success) return { ok: false, error: NOT_AN_EXPORT };
  const { version } = head.output;
  if (version > EXPORT_VERSION) return { ok: false, error: NEWER_EXPORT };
  // Older versions would be upgraded here; version 1 is the first, so anything else is damaged.
  const result = v.safeParse(workspaceExportSchema, data);
  if (!result.success) return { ok: false, error: `${DAMAGED_EXPORT} (${describeIssues(result.issues)})` };
  return { ok: true, value: result.output };
}
