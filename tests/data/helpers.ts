import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { openUserDb, type LinkboardDb } from '../../src/data/db.ts';
import type { MutationContext } from '../../src/data/mutation-context.ts';
import type { DirectoryRow, EventRow, LinkRow, MemberRow, PollRow, UserProfileRow } from '../../src/data/rows.ts';
import type { Tier } from '../../src/domain/plans.ts';

export const ME = '00000000-0000-4000-8000-000000000001';
export const OTHER = '00000000-0000-4000-8000-000000000002';
export const NOW = new Date('2026-03-15T12:00:00Z');

let counter = 0;
export function uuid(): string {
  counter += 1;
  return `10000000-0000-4000-8000-${String(counter).padStart(12, '0')}`;
}

/** A fresh fake IndexedDB per call, so tests share nothing. */
export function freshDb(userId = ME): LinkboardDb {
  return openUserDb(userId, { indexedDB: new IDBFactory(), IDBKeyRange });
}

export function ctx(overrides: Partial<MutationContext> = {}): MutationContext {
  return { userId: ME, email: 'me@example.com', tier: 'free', now: () => NOW, timeZone: 'UTC', ...overrides };
}

export const tierCtx = (tier: Tier) => ctx({ tier });

const stamps = { created_at: '2026-03-01T00:00:00.000Z', updated_at: '2026-03-01T00:00:00.000Z' };

export function makeDirectory(overrides: Partial<DirectoryRow> = {}): DirectoryRow {
  return {
    id: uuid(),
    name: 'Reading',
    description: null,
    color: 'blue',
    is_public: false,
    has_password: false,
    owner_id: ME,
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
    ...stamps,
    ...overrides,
  };
}

/** The user's own profile row as a pull stores it. */
export function makeProfile(overrides: Partial<UserProfileRow> = {}): UserProfileRow {
  return {
    id: ME,
    email: 'me@example.com',
    full_name: '',
    username: 'me',
    bio: '',
    subscription_tier: 'free',
    time_zone: 'UTC',
    created_at: '2026-03-01T09:00:00+00:00',
    updated_at: '2026-03-01T09:00:00+00:00',
    ...overrides,
  };
}

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
    ...stamps,
    ...overrides,
  };
}

/** Everything in the database except meta, for "nothing was written" checks. */
export async function snapshot(db: LinkboardDb): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of db.tables) if (table.name !== 'meta') out[table.name] = await table.toArray();
  return out;
}
