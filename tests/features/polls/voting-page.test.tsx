// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
// Dexie's liveQuery only reacts with a global indexedDB (an injected factory never emits).
import 'fake-indexeddb/auto';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useCurrentUser } from '../../../src/backend/current-user-store.ts';
import { deleteUserDb, openUserDb, type LinkboardDb } from '../../../src/data/db.ts';
import type { PollRow } from '../../../src/data/rows.ts';
import { UserDbContext } from '../../../src/data/user-db-context.ts';
import type { Tier } from '../../../src/domain/plans.ts';
import { VotingPage } from '../../../src/features/polls/voting-page.tsx';
import { applyPushAnswer } from '../../../src/sync/apply-push.ts';
import { useToasts } from '../../../src/ui/toast-store.ts';
import { lastToast, userDbValue } from '../links/user-db-value.ts';
import { makePoll, makeVote } from './poll-builders.ts';

let db: LinkboardDb;
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

beforeEach(() => {
  db = openUserDb('u1');
  useToasts.setState({ toasts: [] });
});

afterEach(async () => {
  cleanup();
  db.close();
  await deleteUserDb('u1');
});

function Where() {
  const location = useLocation();
  return <output aria-label="Location">{location.pathname + location.search}</output>;
}

function renderBoard(tier: Tier = 'free', path = '/Voting/ada') {
  useCurrentUser.setState({
    status: 'signed-in',
    user: { id: 'u1', email: 'ada@example.com', username: 'ada', subscription_tier: tier, time_zone: 'UTC' } as never,
  });
  render(
    <MemoryRouter initialEntries={[path]}>
      <UserDbContext.Provider value={userDbValue(db, { id: 'u1', email: 'ada@example.com', tier })}>
        <Routes>
          <Route path="/Voting/:username" element={<VotingPage />} />
        </Routes>
        <Where />
      </UserDbContext.Provider>
    </MemoryRouter>,
  );
}

const stat = (label: string) => screen.getByText(label).nextElementSibling;
const card = (title: string) => screen.getByRole('article', { name: title });

describe('the Public Voting Board', () => {
  it('shows the empty state, zeroed stats, and the upsell and an ad to a Free user', async () => {
    renderBoard('free');
    expect(await screen.findByText('No active polls yet')).toBeInTheDocument();
    expect(screen.getByText('Create your first community poll to get started')).toBeInTheDocument();
    expect(stat('Active Polls')).toHaveTextContent('0');
    expect(stat('Total Votes')).toHaveTextContent('0');
    expect(stat('Your Votes')).toHaveTextContent('0');
    expect(
      screen.getByText(
        'Free users can create up to 5 polls per month. Upgrade to Pro for unlimited polls and watermark removal.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('complementary', { name: 'Advertisement' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Poll' })).toBeEnabled();
  });

  it('shows public polls only, without the hidden ones, and no ads or watermark to Pro', async () => {
    await db.voting_posts.bulkPut([
      makePoll({ id: 'p1', title: 'Public one' }),
      makePoll({ id: 'p2', title: 'Team one', directory_id: 'd1' }),
      makePoll({ id: 'p3', title: 'Hidden one', is_active: false }),
    ]);
    renderBoard('pro');
    expect(await screen.findByRole('article', { name: 'Public one' })).toBeInTheDocument();
    expect(screen.queryByText('Team one')).not.toBeInTheDocument();
    expect(screen.queryByText('Hidden one')).not.toBeInTheDocument();
    expect(screen.queryByText(/Powered by/)).not.toBeInTheDocument();
    expect(screen.queryByRole('complementary', { name: 'Advertisement' })).not.toBeInTheDocument();
    expect(screen.queryByText(/Free users can create/)).not.toBeInTheDocument();
  });

  it('records a vote at once (queued), shows the results with the choice marked, and counts it', async () => {
    await db.voting_posts.put(
      makePoll({
        deadline: inAnHour(),
        options: [
          { text: 'Pizza', votes: 1 },
          { text: 'Sushi', votes: 0 },
        ],
      }),
    );
    const user = userEvent.setup();
    renderBoard('free');
    const lunch = await screen.findByRole('article', { name: 'Lunch?' });
    expect(within(lunch).getByText('Powered by Linkboard')).toBeInTheDocument();
    expect(within(lunch).getByText(/^Ends /)).toBeInTheDocument();
    expect(stat('Active Polls')).toHaveTextContent('1');
    await user.click(within(lunch).getByRole('button', { name: 'Sushi' }));

    await waitFor(() => expect(within(card('Lunch?')).queryByRole('button')).not.toBeInTheDocument());
    const items = within(card('Lunch?')).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Pizza50.0% · 1 vote');
    expect(items[1]).toHaveTextContent('SushiYour vote50.0% · 1 vote');
    expect(items[1]).toHaveAttribute('aria-current', 'true');
    expect(within(card('Lunch?')).getByText('2 votes')).toBeInTheDocument();
    expect(stat('Total Votes')).toHaveTextContent('2');
    expect(stat('Your Votes')).toHaveTextContent('1');
    // The vote is painted first and queued in the transaction after the paint (turnOf, after-paint.ts).
    await waitFor(async () =>
      expect(await db.outbox.toArray()).toEqual([expect.objectContaining({ name: 'poll.vote' })]),
    );
  });

  /** Casts a vote through the board, then answers its push as the server would refuse it. */
  async function voteRefused(code: string, message: string, serverPoll: PollRow) {
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Pizza' }));
    await screen.findByText('Your vote');
    expect(stat('Your Votes')).toHaveTextContent('1');
    await waitFor(async () => expect(await db.outbox.count()).toBe(1));
    const [queued] = await db.outbox.toArray();
    const voteId = (queued!.args as { id: string }).id;
    const outcome = await applyPushAnswer(
      db,
      [queued!],
      {
        results: [
          {
            id: queued!.id,
            status: 'rejected',
            code,
            message,
            rows: { voting_posts: [{ ...serverPoll, txid: '9' }] },
            deleted: { user_votes: [voteId] },
          },
        ],
      },
      { userId: 'u1', email: 'ada@example.com', tier: 'free', timeZone: 'UTC', now: () => new Date() },
    );
    expect(outcome.rejected).toHaveLength(1);
  }

  it('offers the poll again when the server refuses the vote and the sync engine rolls it back', async () => {
    const poll = makePoll({ deadline: inAnHour() });
    await db.voting_posts.put(poll);
    renderBoard('free');
    await voteRefused('already_voted', 'You have already voted on this poll.', poll);
    expect(await screen.findByRole('button', { name: 'Pizza' })).toBeEnabled();
    expect(screen.queryByText('Your vote')).not.toBeInTheDocument();
    expect(within(card('Lunch?')).getByText('0 votes')).toBeInTheDocument();
    expect(stat('Your Votes')).toHaveTextContent('0');
    expect(await db.voting_posts.get(poll.id)).not.toHaveProperty('local_votes');
  });

  it('shows Ended and the results when the refusal says the poll closed meanwhile', async () => {
    const poll = makePoll({ deadline: inAnHour() });
    await db.voting_posts.put(poll);
    renderBoard('free');
    const closed = {
      ...poll,
      deadline: new Date(Date.now() - 60_000).toISOString(),
      options: [
        { text: 'Pizza', votes: 0 },
        { text: 'Sushi', votes: 2 },
      ],
    };
    await voteRefused('poll_closed', 'This poll is closed.', closed);
    await screen.findByText(/^Ended /);
    expect(within(card('Lunch?')).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByText('Your vote')).not.toBeInTheDocument();
    expect(within(card('Lunch?')).getByText('100.0% · 2 votes')).toBeInTheDocument();
    expect(stat('Active Polls')).toHaveTextContent('0');
  });

  it('turns a card to Ended the moment its deadline passes, before the next clock tick', async () => {
    await db.voting_posts.put(makePoll({ deadline: new Date(Date.now() + 400).toISOString() }));
    renderBoard('pro');
    expect(await screen.findByRole('button', { name: 'Pizza' })).toBeInTheDocument();
    expect(await screen.findByText(/^Ended /, {}, { timeout: 3000 })).toBeInTheDocument();
    expect(within(card('Lunch?')).queryByRole('button')).not.toBeInTheDocument();
  });

  it('shows an ended poll with its results and the user’s earlier vote, taking no votes', async () => {
    await db.voting_posts.put(
      makePoll({
        deadline: '2020-01-01T10:00:00.000Z',
        options: [
          { text: 'Pizza', votes: 3 },
          { text: 'Sushi', votes: 1 },
        ],
      }),
    );
    await db.user_votes.put(makeVote({ option_index: 1 }));
    renderBoard('pro');
    const lunch = await screen.findByRole('article', { name: 'Lunch?' });
    expect(within(lunch).getByText('Ended 1 Jan 2020, 10:00')).toBeInTheDocument();
    expect(within(lunch).queryByRole('button')).not.toBeInTheDocument();
    expect(within(lunch).getByText('75.0% · 3 votes')).toBeInTheDocument();
    expect(within(lunch).getAllByRole('listitem')[1]).toHaveTextContent('Your vote');
  });

  it('disables Create Poll at the Free quota of 5 polls this month, counting team polls too', async () => {
    const thisMonth = new Date().toISOString();
    await db.voting_posts.bulkPut([
      ...Array.from({ length: 4 }, (_, i) => makePoll({ id: `p${i}`, created_at: thisMonth })),
      makePoll({ id: 't1', directory_id: 'd1', created_at: thisMonth }),
      makePoll({ id: 'old', created_at: '2020-01-01T00:00:00.000Z' }),
      makePoll({ id: 'other', created_by_id: 'u2', created_at: thisMonth }),
    ]);
    renderBoard('free');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Create Poll' })).toBeDisabled());
    expect(screen.getByText('Upgrade to Pro to create more than 5 voting posts per month.')).toBeInTheDocument();
    await db.voting_posts.delete('p0');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Create Poll' })).toBeEnabled());
    expect(screen.queryByText('Upgrade to Pro to create more than 5 voting posts per month.')).not.toBeInTheDocument();
  });

  it('opens Create Poll for ?new=poll and removes the parameter, then creates a poll', async () => {
    const user = userEvent.setup();
    renderBoard('free', '/Voting/ada?new=poll');
    const dialog = await screen.findByRole('dialog', { name: 'Create Poll' });
    await waitFor(() =>
      expect(screen.getByRole('status', { name: 'Location', hidden: true })).toHaveTextContent(/^\/Voting\/ada$/),
    );
    await user.type(within(dialog).getByLabelText('Title'), 'Team lunch');
    await user.type(within(dialog).getByLabelText('Option 1'), 'Pizza');
    await user.type(within(dialog).getByLabelText('Option 2'), 'Sushi');
    await user.click(within(dialog).getByRole('button', { name: 'Create Poll' }));
    expect(await screen.findByRole('article', { name: 'Team lunch' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(stat('Active Polls')).toHaveTextContent('1');
    expect(lastToast()).toBeUndefined();
  });

  it('focuses the poll ?poll={id} names (the command palette) once the board shows it, and removes the parameter', async () => {
    await db.voting_posts.bulkPut([
      makePoll({ id: 'p1', title: 'Lunch?', deadline: inAnHour() }),
      makePoll({ id: 'p2', title: 'Offsite?', deadline: inAnHour() }),
    ]);
    renderBoard('pro', '/Voting/ada?poll=p2');
    await waitFor(() => expect(card('Offsite?')).toHaveFocus());
    await waitFor(() =>
      expect(screen.getByRole('status', { name: 'Location', hidden: true })).toHaveTextContent(/^\/Voting\/ada$/),
    );
  });
});
