/** Row types of the synced tables as stored locally (spec 3, docs/sync-protocol.md). */
import type { Tier } from '../domain/plans.ts';
import type { DirectoryColor, MemberRole, Priority } from '../domain/validation.ts';
import type { MutationName } from '../domain/mutation-names.ts';

export interface SyncedRow {
  id: string;
  created_at: string;
  updated_at: string;
  /** Never set on a stored row: a pulled tombstone deletes the local row. */
  deleted_at?: string | null;
  /** The server's writing transaction; absent on an optimistic row. */
  txid?: string | null;
}

export interface UserProfileRow extends SyncedRow {
  email: string | null;
  full_name: string;
  username: string | null;
  bio: string;
  subscription_tier: Tier;
  time_zone: string;
}

export interface DirectoryRow extends SyncedRow {
  name: string;
  description: string | null;
  color: DirectoryColor;
  is_public: boolean;
  has_password: boolean;
  owner_id: string;
  /** The owner's plan (free, pro, team), sent by the server with a directory shared with the user. */
  owner_tier?: string;
}

export interface LinkRow extends SyncedRow {
  directory_id: string;
  url: string;
  title: string;
  notes: string | null;
  description: string | null;
  tags: string[];
  is_favorite: boolean;
  created_by: string | null;
  owner_id: string;
}

export interface MemberRow extends SyncedRow {
  directory_id: string;
  user_email: string;
  role: MemberRole;
  inviter_id: string | null;
}

export interface EventRow extends SyncedRow {
  title: string;
  description: string | null;
  starts_at: string | null;
  ends_at: string | null;
  owner_id: string;
  is_task: boolean;
  priority: Priority | null;
  is_completed: boolean;
  series_id: string | null;
  recurrence_rule: 'none' | 'daily' | 'weekly' | 'monthly';
  recurrence_end_date: string | null;
}

export interface PollOption {
  text: string;
  votes: number;
}

export interface PollRow extends SyncedRow {
  title: string;
  description: string | null;
  options: PollOption[];
  deadline: string | null;
  directory_id: string | null;
  created_by: string | null;
  created_by_id: string;
  is_active: boolean;
  /** Local only: ids of pending votes already counted into `options` (so a rebase counts each once). */
  local_votes?: string[];
}

export interface VoteRow extends SyncedRow {
  post_id: string;
  option_index: number;
  user_email: string | null;
  user_id: string;
}

export interface RowsByTable {
  user_profiles: UserProfileRow;
  link_directories: DirectoryRow;
  saved_links: LinkRow;
  directory_members: MemberRow;
  calendar_events: EventRow;
  voting_posts: PollRow;
  user_votes: VoteRow;
}

export type SyncedTableName = keyof RowsByTable;

export const syncedTableNames: readonly SyncedTableName[] = [
  'user_profiles',
  'link_directories',
  'saved_links',
  'directory_members',
  'calendar_events',
  'voting_posts',
  'user_votes',
];

export interface OutboxRow {
  /** Local order of the queue. */
  seq?: number;
  /** The mutation id (a client-made uuid), the idempotency key on the server. */
  id: string;
  name: MutationName;
  args: Record<string, unknown>;
  created_at: string;
  attempts: number;
  /** 'failed': kept failing for a reason that is not the network; waits for retry or discard. */
  status: 'pending' | 'failed';
  last_error?: string;
}

export interface MetaRow {
  key: string;
  value: unknown;
}
