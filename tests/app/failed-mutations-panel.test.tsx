// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import 'fake-indexeddb/auto';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FailedMutationsPanel } from '../../src/app/sync/failed-mutations-panel.tsx';
import { useUserSession, type UserSession } from '../../src/app/sync/user-session.ts';
import { deleteUserDb, openUserDb, type LinkboardDb } from '../../src/data/db.ts';

let db: LinkboardDb;
const engine = { retry: vi.fn().mockResolvedValue('synced'), discard: vi.fn().mockResolvedValue('synced') };

beforeEach(async () => {
  db = openUserDb('u1');
  await db.outbox.bulkAdd([
    {
      id: 'm1',
      name: 'link.create',
      args: {},
      created_at: '2026-01-01T00:00:00Z',
      attempts: 3,
      status: 'failed',
      last_error: 'boom',
    },
    { id: 'm2', name: 'profile.update', args: {}, created_at: '2026-01-01T00:00:00Z', attempts: 0, status: 'pending' },
  ]);
  useUserSession.setState({
    // A session with only what the panel uses (a real db, a spy engine): a stand-in, not a row.
    session: { userId: 'u1', db, engine, dispose: () => undefined } as unknown as UserSession,
  });
});

afterEach(async () => {
  cleanup();
  useUserSession.setState({ session: null });
  vi.clearAllMocks();
  db.close();
  await deleteUserDb('u1');
});

describe('changes that could not be saved', () => {
  it('lists the failed mutations only, with retry and discard', async () => {
    const user = userEvent.setup();
    render(<FailedMutationsPanel />);
    const panel = await screen.findByRole('region', { name: 'Changes that could not be saved' });
    expect(panel).toHaveTextContent('Link create');
    expect(panel).toHaveTextContent('boom');
    expect(panel).not.toHaveTextContent('Profile update');
    // Inside a live region that was there before the failure, so the reason is announced.
    expect(panel.closest('[aria-live="assertive"]')).not.toBeNull();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(engine.retry).toHaveBeenCalledWith('m1');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Discard' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Discard' }));
    expect(engine.discard).toHaveBeenCalledWith('m1');
  });

  it('shows nothing when no change failed', async () => {
    await db.outbox.where('id').equals('m1').delete();
    const { container } = render(<FailedMutationsPanel />);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(container).toHaveTextContent('');
    expect(screen.queryByRole('region')).toBeNull();
    // The (empty) live region waits for a failure.
    expect(container.querySelector('[aria-live="assertive"]')).toBeEmptyDOMElement();
  });
});
