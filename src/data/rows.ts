/** Row types of the synced tables as stored locally (docs/product.md, Records, docs/sync-protocol.md). */
import type { RowOf, SyncedTableName } from './synced-tables.ts';

/** Row types of the synced tables, derived from their declaration (synced-tables.ts). */
export type UserProfileRow = RowOf<'user_profiles'>;
export type DirectoryRow = RowOf<'link_directories'>;
export type LinkRow = RowOf<'saved_links'>;
export type MemberRow = RowOf<'directory_members'>;
export type EventRow = RowOf<'calendar_events'>;
export type PollRow = RowOf<'voting_posts'>;
export type PollOption = PollRow['options'][number];
export type VoteRow = RowOf<'user_votes'>;
export type SlotAnswersRow = RowOf<'slot_answers'>;
export type InvitationRow = RowOf<'event_invitations'>;

export type RowsByTable = { [N in SyncedTableName]: RowOf<N> };

export { syncedTableNames, type SyncedTableName } from './synced-tables.ts';

export type { OutboxRow } from './outbox.ts';

export interface MetaRow {
  key: string;
  value: unknown;
}
