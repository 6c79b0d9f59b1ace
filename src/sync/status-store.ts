/** The sync status always shown in the UI (docs/sync-protocol.md, Client). */
import { create } from 'zustand';

export type SyncState = 'synced' | 'syncing' | 'offline' | 'error';

export interface SyncStatus {
  state: SyncState;
  /** Mutations waiting to be pushed. */
  pending: number;
  /** Mutations that kept failing and wait for retry or discard. */
  failed: number;
  /** What went wrong, for 'error'. */
  message: string | null;
  lastSyncedAt: string | null;
}

/** Until the first sync has run, nothing is known to be synced. */
export const initialSyncStatus: SyncStatus = {
  state: 'syncing',
  pending: 0,
  failed: 0,
  message: null,
  lastSyncedAt: null,
};

export const useSyncStatus = create<SyncStatus>(() => initialSyncStatus);

export function setSyncStatus(status: SyncStatus): void {
  useSyncStatus.setState(status, true);
}
