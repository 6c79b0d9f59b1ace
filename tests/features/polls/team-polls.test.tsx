// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import 'fake-indexeddb/auto';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useCurrentUser } from '../../../src/backend/current-user-store.ts';
import { deleteUserDb, openUserDb, type LinkboardDb } from '../../../src/data/db.ts';
import { UserDbContext } from '../../../src/data/user-db-context.ts';
import type { Tier } from '../../../src/domain/plans.ts';
import { TeamPolls } from '../../../src/features/polls/team-polls.tsx';
import { userDbValue } from '../links/user-db-value.ts';
import { makePoll } from './poll-builders.ts';
import { makeDirectory } from '../../support/builders.ts';

let db: LinkboardDb;
const stamp = { created_at: '2030-01-01T00:00:00Z', updated_at: '2030-01-01T00:00:00Z' };

beforeEach(async () => {
  db = openUserDb('u1');
  useCurrentUser.setState({
    status: 'signed-in',
    user: { id: 'u1', email: 'ada@example.com', username: 'ada', subscription_tier: 'team', time_zone: 'UTC' } as never,
  });
  await db.link_directories.put(
    makeDirectory({ id: 'd1', name: 'Work', owner_id: 'u1', owner_tier: 'team', ...stamp }),
  );
});

afterEach(async () => {
  cleanup();
  db.close();
  await deleteUserDb('u1');
});

function Where() {
  return <output aria-label="Location">{useLocation().pathname}</output>;
}

function renderPanel(tier: Tier, canCreate = true) {
  render(
    <MemoryRouter initialEntries={['/Links/ada/dir/d1']}>
      <UserDbContext.Provider value={userDbValue(db, { id: 'u1', email: 'ada@example.com', tier: 'team' })}>
        <Routes>
          <Route path="*" element={<TeamPolls directoryId="d1" tier={tier} username="ada" canCreate={canCreate} />} />
        </Routes>
        <Where />
      </UserDbContext.Provider>
    </MemoryRouter>,
  );
}

describe('the Team Polls tab', () => {
  it.each(['free', 'pro'] as const)('shows the upsell on a %s directory, leading to Upgrade', async (tier) => {
    const user = userEvent.setup();
    renderPanel(tier);
    expect(screen.getByText('Unlock Team Polls')).toBeInTheDocument();
    expect(screen.getByText('Shared team voting boards are exclusive to the Team plan.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create Team Poll' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Upgrade to Team Plan' }));
    expect(screen.getByRole('status', { name: 'Location' })).toHaveTextContent('/Upgrade/ada');
  });

  it('shows the loading text, then the empty state, and creates the first poll', async () => {
    const user = userEvent.setup();
    renderPanel('team');
    expect(screen.getByText('Loading polls...')).toBeInTheDocument();
    expect(await screen.findByText('No team polls yet')).toBeInTheDocument();
    expect(screen.getByText('Create the first poll for this directory')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create First Poll' }));
    const dialog = screen.getByRole('dialog', { name: 'Create Team Poll' });
    await user.type(within(dialog).getByLabelText('Title'), 'Offsite');
    await user.type(within(dialog).getByLabelText('Option 1'), 'Lisbon');
    await user.type(within(dialog).getByLabelText('Option 2'), 'Porto');
    await user.click(within(dialog).getByRole('button', { name: 'Create Team Poll' }));
    const poll = await screen.findByRole('article', { name: 'Offsite' });
    expect(within(poll).getByRole('button', { name: 'Lisbon' })).toBeInTheDocument();
    expect((await db.voting_posts.toArray())[0]).toMatchObject({ directory_id: 'd1', title: 'Offsite' });
  });

  it("shows only this directory's active polls, without the watermark", async () => {
    await db.voting_posts.bulkPut([
      makePoll({ id: 'p1', title: 'Ours', directory_id: 'd1' }),
      makePoll({ id: 'p2', title: 'Elsewhere', directory_id: 'd2' }),
      makePoll({ id: 'p3', title: 'Public' }),
      makePoll({ id: 'p4', title: 'Hidden', directory_id: 'd1', is_active: false }),
    ]);
    renderPanel('team', false);
    expect(await screen.findByRole('article', { name: 'Ours' })).toBeInTheDocument();
    expect(screen.getAllByRole('article')).toHaveLength(1);
    expect(screen.queryByText(/Powered by/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create Team Poll' })).not.toBeInTheDocument();
  });

  it('hides the create buttons from those who may not create', async () => {
    renderPanel('team', false);
    expect(await screen.findByText('No team polls yet')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create First Poll' })).not.toBeInTheDocument();
  });
});
