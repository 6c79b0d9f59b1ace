/**
 * Stored rows copied field by field into the export's records (workspace-export-format.ts), so
 * local-only fields (`owner_tier`, `local_votes`) and sync internals (`txid`, `deleted_at`) never
 * reach the file, and the orders the file lists them in.
 */
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
import type {
  ExportAnswers,
  ExportDirectory,
  ExportInvitation,
  ExportEvent,
  ExportLink,
  ExportMember,
  ExportPoll,
  ExportProfile,
  ExportSharedDirectory,
  ExportVote,
} from './workspace-export-format.ts';

type Dated = { created_at: string; id: string };

const compare = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

/** Oldest first, then by id. */
export const byCreated = (a: Dated, b: Dated) => compare(a.created_at, b.created_at) || compare(a.id, b.id);

/** Events by start (undated tasks last), then by id. */
export const byStart = (a: EventRow, b: EventRow) =>
  compare(a.starts_at ?? '\uffff', b.starts_at ?? '\uffff') || compare(a.id, b.id);

export function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

/** The profile row, or what the signed-in session knows when it has not been pulled yet. */
export function profileOf(
  row: UserProfileRow | undefined,
  user: { userId: string; email: string; timeZone: string },
): ExportProfile {
  return {
    id: user.userId,
    email: user.email || (row?.email ?? null),
    full_name: row?.full_name ?? '',
    username: row?.username ?? null,
    bio: row?.bio ?? '',
    subscription_tier: row?.subscription_tier ?? 'free',
    time_zone: row?.time_zone ?? user.timeZone,
    default_reminder_minutes: row?.default_reminder_minutes ?? null,
    theme: row?.theme ?? 'system',
    billing_cycle: row?.billing_cycle ?? null,
    plan_period_end: row?.plan_period_end ?? null,
    plan_cancel_at_period_end: row?.plan_cancel_at_period_end ?? false,
  };
}

function linkOf(row: LinkRow): ExportLink {
  const { id, url, title, notes, description, tags, is_favorite, created_by, created_at, updated_at } = row;
  return {
    id,
    url,
    title,
    notes,
    description,
    tags: [...tags],
    is_favorite,
    created_by,
    site_name: row.site_name ?? null,
    icon_url: row.icon_url ?? null,
    image_url: row.image_url ?? null,
    preview_state: row.preview_state ?? null,
    previewed_at: row.previewed_at ?? null,
    broken_at: row.broken_at ?? null,
    created_at,
    updated_at,
  };
}

/** A directory with its links, newest first as the Links screen lists them. */
export function directoryOf(row: DirectoryRow, links: readonly LinkRow[]): ExportDirectory {
  const { id, name, description, color, is_public, has_password, created_at, updated_at } = row;
  const sorted = [...links].sort((a, b) => byCreated(b, a));
  return { id, name, description, color, is_public, has_password, created_at, updated_at, links: sorted.map(linkOf) };
}

export function sharedDirectoryOf(
  row: DirectoryRow,
  links: readonly LinkRow[],
  role: MemberRow['role'] | null,
): ExportSharedDirectory {
  return { ...directoryOf(row, links), owner_id: row.owner_id, role, read_only: true };
}

export function eventOf(row: EventRow): ExportEvent {
  const { id, title, description, starts_at, ends_at, is_task, priority, is_completed } = row;
  const { series_id, recurrence_rule, recurrence_end_date, created_at, updated_at } = row;
  return {
    ...{ id, title, description, starts_at, ends_at, is_task, priority, is_completed },
    ...{ series_id, recurrence_rule, recurrence_end_date, created_at, updated_at },
    reminder_minutes: row.reminder_minutes ?? null,
    all_day: row.all_day ?? false,
  };
}

export function pollOf(row: PollRow): ExportPoll {
  const { id, title, description, options, deadline, directory_id, is_active, created_at, updated_at } = row;
  const kind = row.kind ?? 'choice';
  const copied = options.map((option) =>
    kind === 'time'
      ? {
          text: option.text,
          votes: option.votes,
          id: option.id ?? '',
          start: option.start ?? null,
          minutes: option.minutes ?? null,
          day: option.day ?? null,
          yes: option.yes ?? option.votes,
          maybe: option.maybe ?? 0,
        }
      : { text: option.text, votes: option.votes },
  );
  return {
    ...{ id, title, description, options: copied, deadline, directory_id, is_active, kind },
    time_zone: row.time_zone ?? null,
    picked_slot_id: row.picked_slot_id ?? null,
    picked_event_id: row.picked_event_id ?? null,
    pick_count: row.pick_count ?? 0,
    ...{ created_at, updated_at },
  };
}

/** A vote with its option's text and poll title, when the poll is on this device. */
export function voteOf(row: VoteRow, poll: PollRow | undefined): ExportVote {
  return {
    id: row.id,
    poll_id: row.post_id,
    option_index: row.option_index,
    option_text: poll?.options[row.option_index]?.text ?? null,
    poll_title: poll?.title ?? null,
    created_at: row.created_at,
  };
}

export function memberOf(row: MemberRow): ExportMember {
  return {
    id: row.id,
    directory_id: row.directory_id,
    email: row.user_email,
    role: row.role,
    created_at: row.created_at,
  };
}

/** A voter's answers, slot by slot in the poll's order (slots no longer in the poll after them). */
export function answersOf(row: SlotAnswersRow, poll: PollRow | undefined): ExportAnswers {
  const slots = poll?.kind === 'time' ? poll.options : [];
  const order = new Map(slots.map((slot, index) => [slot.id ?? '', index]));
  const ids = Object.keys(row.answers).sort(
    (a, b) => (order.get(a) ?? slots.length) - (order.get(b) ?? slots.length) || compare(a, b),
  );
  return {
    id: row.id,
    poll_id: row.post_id,
    poll_title: poll?.title ?? null,
    directory_id: row.directory_id,
    answers: ids.map((slotId) => {
      const slot = slots[order.get(slotId) ?? -1];
      return {
        slot_id: slotId,
        answer: row.answers[slotId] ?? 'no',
        start: slot?.start ?? null,
        minutes: slot?.minutes ?? null,
        day: slot?.day ?? null,
      };
    }),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function invitationOf(row: InvitationRow): ExportInvitation {
  const { id, inviter_name, title, description, starts_at, ends_at, all_day, status, event_id } = row;
  return {
    ...{ id, poll_id: row.post_id, inviter_name, title, description, starts_at, ends_at, all_day, status, event_id },
    ...{ created_at: row.created_at, updated_at: row.updated_at },
  };
}
