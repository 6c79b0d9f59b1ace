/**
 * One builder per synced table (src/data/synced-tables.ts), each a row exactly as the client
 * stores it after a pull: every declared field with a realistic value, timestamps as instants.
 * Four fields are left out on purpose: `deleted_at` (never on a stored row), `txid` (absent on a
 * row the client wrote itself; give it as an override for a row the server sent) and a poll's
 * `local_votes` and a time poll answers row's `local_base` (only there while a vote or answer of
 * the user is pending). tests/data/builders.test.ts
 * runs each default through its table's schema, so a new column fails there until its builder has it.
 */
import type {
  DirectoryRow,
  EventRow,
  LinkRow,
  MemberRow,
  InvitationRow,
  PollRow,
  SlotAnswersRow,
  UserProfileRow,
  VoteRow,
} from '../../src/data/rows.ts';

export const ME = '00000000-0000-4000-8000-000000000001';
export const OTHER = '00000000-0000-4000-8000-000000000002';

let counter = 0;
/** A fresh id per call, shaped as the server's uuids. */
export function uuid(): string {
  counter += 1;
  return `10000000-0000-4000-8000-${String(counter).padStart(12, '0')}`;
}

const stamps = { created_at: '2026-03-01T00:00:00.000Z', updated_at: '2026-03-01T00:00:00.000Z' };

/** The user's own profile row, on Free. */
export function makeProfile(overrides: Partial<UserProfileRow> = {}): UserProfileRow {
  return {
    id: ME,
    email: 'me@example.com',
    full_name: '',
    username: 'me',
    bio: '',
    subscription_tier: 'free',
    time_zone: 'UTC',
    default_reminder_minutes: null,
    theme: 'system',
    billing_cycle: null,
    plan_period_end: null,
    plan_cancel_at_period_end: false,
    created_at: '2026-03-01T09:00:00.000Z',
    updated_at: '2026-03-01T09:00:00.000Z',
    ...overrides,
  };
}

/** The user's own private directory; `owner_tier` is the owner's plan, as the pull sends it. */
export function makeDirectory(overrides: Partial<DirectoryRow> = {}): DirectoryRow {
  return {
    id: uuid(),
    name: 'Reading',
    description: null,
    color: 'blue',
    is_public: false,
    has_password: false,
    owner_id: ME,
    owner_tier: 'free',
    ...stamps,
    ...overrides,
  };
}

export function makeLink(overrides: Partial<LinkRow> = {}): LinkRow {
  return {
    id: uuid(),
    directory_id: uuid(),
    url: 'https://example.com',
    title: 'Example',
    notes: null,
    description: null,
    tags: [],
    is_favorite: false,
    created_by: ME,
    owner_id: ME,
    site_name: null,
    icon_url: null,
    image_url: null,
    preview_state: null,
    previewed_at: null,
    broken_at: null,
    ...stamps,
    ...overrides,
  };
}

export function makeMember(overrides: Partial<MemberRow> = {}): MemberRow {
  return {
    id: uuid(),
    directory_id: uuid(),
    user_email: 'friend@example.com',
    role: 'viewer',
    inviter_id: OTHER,
    ...stamps,
    ...overrides,
  };
}

/** A one-hour event of the user's, no reminder. */
export function makeEvent(overrides: Partial<EventRow> = {}): EventRow {
  return {
    id: uuid(),
    title: 'Standup',
    description: null,
    starts_at: '2026-03-16T09:00:00.000Z',
    ends_at: '2026-03-16T10:00:00.000Z',
    owner_id: ME,
    is_task: false,
    priority: null,
    is_completed: false,
    series_id: null,
    recurrence_rule: 'none',
    recurrence_end_date: null,
    reminder_minutes: null,
    all_day: false,
    ...stamps,
    ...overrides,
  };
}

/** Another user's public poll, no votes yet. */
export function makePoll(overrides: Partial<PollRow> = {}): PollRow {
  return {
    id: uuid(),
    title: 'Lunch?',
    description: null,
    options: [
      { text: 'Pizza', votes: 0 },
      { text: 'Sushi', votes: 0 },
    ],
    deadline: null,
    directory_id: null,
    created_by: 'other',
    created_by_id: OTHER,
    is_active: true,
    kind: 'choice',
    time_zone: null,
    picked_slot_id: null,
    picked_event_id: null,
    pick_count: 0,
    ...stamps,
    ...overrides,
  };
}

/** The user's vote for the first option of a poll. */
export function makeVote(overrides: Partial<VoteRow> = {}): VoteRow {
  return {
    id: uuid(),
    post_id: uuid(),
    option_index: 0,
    user_email: 'me@example.com',
    user_id: ME,
    ...stamps,
    ...overrides,
  };
}

/** Another user's public 'Find a time' poll in Europe/London: two one-hour slots and a whole day, no answers yet. */
export function makeTimePoll(overrides: Partial<PollRow> = {}): PollRow {
  return makePoll({
    title: 'Planning meeting',
    kind: 'time',
    time_zone: 'Europe/London',
    options: [
      { id: 'slot-1', text: '', votes: 0, start: '2026-03-16T09:00:00.000Z', minutes: 60, day: null, yes: 0, maybe: 0 },
      { id: 'slot-2', text: '', votes: 0, start: '2026-03-17T14:00:00.000Z', minutes: 60, day: null, yes: 0, maybe: 0 },
      { id: 'slot-3', text: '', votes: 0, start: null, minutes: null, day: '2026-03-18', yes: 0, maybe: 0 },
    ],
    ...overrides,
  });
}

/** The user's answers to a time poll, as the server sent them (no `local_base`). */
export function makeSlotAnswers(overrides: Partial<SlotAnswersRow> = {}): SlotAnswersRow {
  return {
    id: uuid(),
    post_id: uuid(),
    user_id: ME,
    directory_id: null,
    voter_name: 'me',
    answers: { 'slot-1': 'yes' },
    ...stamps,
    ...overrides,
  };
}

/** A pending invitation of the user's to a picked one-hour time. */
export function makeInvitation(overrides: Partial<InvitationRow> = {}): InvitationRow {
  return {
    id: uuid(),
    post_id: uuid(),
    user_id: ME,
    inviter_name: 'other',
    title: 'Planning meeting',
    description: null,
    starts_at: '2026-03-16T09:00:00.000Z',
    ends_at: '2026-03-16T10:00:00.000Z',
    all_day: false,
    status: 'pending',
    event_id: null,
    ...stamps,
    ...overrides,
  };
}
