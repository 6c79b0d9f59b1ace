// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SyncStatusBadge, syncStatusText } from '../../src/app/sync/sync-status-badge.tsx';
import { initialSyncStatus, setSyncStatus, type SyncStatus } from '../../src/sync/status-store.ts';

const status = (patch: Partial<SyncStatus>): SyncStatus => ({ ...initialSyncStatus, ...patch });

afterEach(() => {
  cleanup();
  setSyncStatus(initialSyncStatus);
});

describe('the sync status', () => {
  it('says synced, syncing, offline with the changes waiting, or the error', () => {
    expect(syncStatusText(status({ state: 'synced' }))).toBe('Synced');
    expect(syncStatusText(status({ state: 'syncing', pending: 2 }))).toBe('Syncing…');
    expect(syncStatusText(status({ state: 'offline', pending: 0 }))).toBe('Offline');
    expect(syncStatusText(status({ state: 'offline', pending: 1 }))).toBe('Offline — 1 change waiting');
    expect(syncStatusText(status({ state: 'offline', pending: 3 }))).toBe('Offline — 3 changes waiting');
    expect(syncStatusText(status({ state: 'error', message: '1 change could not be saved.' }))).toBe(
      '1 change could not be saved.',
    );
  });

  it('is a polite live region that follows the status store', () => {
    render(<SyncStatusBadge />);
    const badge = screen.getByRole('status', { name: 'Sync status' });
    expect(badge).toHaveAttribute('aria-live', 'polite');
    expect(badge).toHaveTextContent('Syncing…');
    act(() => setSyncStatus(status({ state: 'offline', pending: 2 })));
    expect(badge).toHaveTextContent('Offline — 2 changes waiting');
    act(() => setSyncStatus(status({ state: 'synced' })));
    expect(badge).toHaveTextContent('Synced');
  });

  it('keeps the words for screen readers when compact', () => {
    render(<SyncStatusBadge compact status={status({ state: 'offline', pending: 1 })} />);
    expect(screen.getByRole('status', { name: 'Sync status' })).toHaveTextContent('Offline — 1 change waiting');
  });
});
