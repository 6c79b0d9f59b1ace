// @vitest-environment jsdom
/** 'Find a time' on the Team Polls tab and the Voting board (docs/product.md, Find a time), on a real local database. */
import '@testing-library/jest-dom/vitest';
import 'fake-indexeddb/auto';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useCurrentUser } from '../../../src/backend/current-user-store.ts';
import { deleteUserDb, openUserDb, type LinkboardDb } from '../../../src/data/db.ts';
import { UserDbContext } from '../../../src/data/user-db-context.ts';
import { setDisplayLocale } from '../../../src/domain/date-format.ts';
import { TeamPolls } from '../../../src/features/polls/team-polls.tsx';
import { VotingPage } from '../../../src/features/polls/voting-page.tsx';
import { userDbValue } from '../links/user-db-value.ts';
import { makeDirectory, makeInvitation, makeSlotAnswers, makeTimePoll } from '../../support/builders.ts';

let db: LinkboardDb;
const stamp = { created_at: '2030-01-01T00:00:00.000Z', updated_at: '2030-01-01T00:00:00.000Z' };
const FUTURE_SLOTS = [
  { id: 's1', text: '', votes: 1, start: '2030-03-18T09:00:00.000Z', minutes: 60, day: null, yes: 1, maybe: 0 },
  { id: 's2', text: '', votes: 1, start: '2030-03-19T14:00:00.000Z', minutes: 90, day: null, yes: 1, maybe: 1 },
  { id: 's3', text: '', votes: 0, start: null, minutes: null, day: '2030-03-20', yes: 0, maybe: 0 },
];

beforeEach(async () => {
  setDisplayLocale('en-GB');
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
  setDisplayLocale(undefined);
  db.close();
  await deleteUserDb('u1');
});

function renderTeamPolls() {
  render(
    <MemoryRouter>
      <UserDbContext.Provider value={userDbValue(db, { id: 'u1', email: 'ada@example.com', tier: 'team' })}>
        <TeamPolls directoryId="d1" tier="team" username="ada" canCreate />
      </UserDbContext.Provider>
    </MemoryRouter>,
  );
}

/** Bob's team poll in Berlin: Bob said Yes to s1 and s2, Carol (no name) If need be to s2. */
async function seedTeamPoll(fields: Parameters<typeof makeTimePoll>[0] = {}) {
  const poll = makeTimePoll({
    id: 'p1',
    directory_id: 'd1',
    created_by: 'bob',
    created_by_id: 'u2',
    time_zone: 'Europe/Berlin',
    options: FUTURE_SLOTS,
    ...stamp,
    ...fields,
  });
  await db.voting_posts.put(poll);
  await db.slot_answers.bulkPut([
    makeSlotAnswers({
      id: 'a2',
      post_id: 'p1',
      user_id: 'u2',
      directory_id: 'd1',
      voter_name: 'bob',
      answers: { s1: 'yes', s2: 'yes' },
      txid: '5',
      ...stamp,
    }),
    makeSlotAnswers({
      id: 'a3',
      post_id: 'p1',
      user_id: 'u3',
      directory_id: 'd1',
      voter_name: null,
      answers: { s2: 'maybe' },
      txid: '6',
      ...stamp,
    }),
  ]);
  return poll;
}

const rowOf = (table: HTMLElement, name: RegExp) =>
  within(table)
    .getAllByRole('row')
    .find((row) => within(row).queryByRole('rowheader', { name }))!;

describe('a team Find a time poll', () => {
  it("shows each slot in the user's zone with the creator's beside it, the counts, Best and every voter's answers", async () => {
    await seedTeamPoll();
    renderTeamPolls();
    const table = await screen.findByRole('table', { name: 'Planning meeting' });
    // The answers rows are read after the poll.
    await within(table).findByRole('columnheader', { name: 'bob' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual(['Time', 'Your answer', 'Yes', 'If need be', 'bob', 'Someone']);
    const s1 = rowOf(table, /Mon 18 Mar, 09:00–10:00/);
    expect(within(s1).getByRole('rowheader')).toHaveTextContent('10:00–11:00 in Europe/Berlin');
    const s2 = rowOf(table, /Tue 19 Mar, 14:00–15:30/);
    // Most Yes ties (1 and 1): most If need be decides.
    expect(within(s2).getByRole('rowheader')).toHaveTextContent('Best');
    expect(within(s1).getByRole('rowheader')).not.toHaveTextContent('Best');
    expect(
      within(s2)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['YesIf need beNo', '1', '1', 'Yes', 'If need be']);
    const day = rowOf(table, /Wed 20 Mar, All day/);
    expect(within(day).getByRole('rowheader')).not.toHaveTextContent('Europe/Berlin');
    // Not the creator: no Pick this time, no Remove.
    expect(within(table).queryByRole('button', { name: 'Pick this time' })).not.toBeInTheDocument();
  });

  it('an answer is pressed and counted at once, then changed without counting twice, in one row', async () => {
    const user = userEvent.setup();
    await seedTeamPoll();
    renderTeamPolls();
    const table = await screen.findByRole('table', { name: 'Planning meeting' });
    const s1 = () => rowOf(table, /Mon 18 Mar/);
    const group = () => within(s1()).getByRole('group', { name: /Your answer for Mon 18 Mar/ });
    await user.click(within(group()).getByRole('button', { name: 'Yes' }));
    await waitFor(() =>
      expect(within(group()).getByRole('button', { name: 'Yes' })).toHaveAttribute('aria-pressed', 'true'),
    );
    expect(within(s1()).getAllByRole('cell')[1]).toHaveTextContent('2');
    // Ada's own column joins the grid, named by her username.
    expect(within(table).getByRole('columnheader', { name: 'ada' })).toBeInTheDocument();
    await user.click(within(group()).getByRole('button', { name: 'If need be' }));
    await waitFor(() => expect(within(s1()).getAllByRole('cell')[1]).toHaveTextContent('1'));
    expect(within(s1()).getAllByRole('cell')[2]).toHaveTextContent('1');
    expect(within(group()).getByRole('button', { name: 'Yes' })).toHaveAttribute('aria-pressed', 'false');
    expect(within(group()).getByRole('button', { name: 'If need be' })).toHaveAttribute('aria-pressed', 'true');
    await waitFor(async () => {
      const mine = await db.slot_answers.where('[post_id+user_id]').equals(['p1', 'u1']).toArray();
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ answers: { s1: 'maybe' }, local_base: {} });
    });
  });

  it("offers the creator 'Pick this time' and 'Remove'; a pick shows the time to all and makes the event", async () => {
    const user = userEvent.setup();
    await seedTeamPoll({ created_by_id: 'u1', created_by: 'ada' });
    renderTeamPolls();
    const table = await screen.findByRole('table', { name: 'Planning meeting' });
    await user.click(within(rowOf(table, /Wed 20 Mar/)).getByRole('button', { name: /^Remove/ }));
    await waitFor(() => expect(within(table).queryByRole('rowheader', { name: /Wed 20 Mar/ })).not.toBeInTheDocument());
    await user.click(within(rowOf(table, /Tue 19 Mar/)).getByRole('button', { name: 'Pick this time' }));
    const card = screen.getByRole('article', { name: 'Planning meeting' });
    expect(await within(card).findByText(/Picked time:/)).toHaveTextContent('Picked time: Tue 19 Mar, 14:00–15:30');
    const poll = await db.voting_posts.get('p1');
    expect(poll).toMatchObject({ picked_slot_id: 's2' });
    expect(await db.calendar_events.get(poll!.picked_event_id!)).toMatchObject({
      title: 'Planning meeting',
      starts_at: '2030-03-19T14:00:00.000Z',
      ends_at: '2030-03-19T15:30:00.000Z',
    });
    // Picked, it takes no more answers.
    expect(within(rowOf(table, /Mon 18 Mar/)).getByRole('button', { name: 'Yes' })).toBeDisabled();
  });

  it('a pending invitation is accepted from the card (the event joins the calendar)', async () => {
    const user = userEvent.setup();
    await seedTeamPoll({ picked_slot_id: 's1' });
    await db.event_invitations.put(
      makeInvitation({
        id: 'i1',
        post_id: 'p1',
        user_id: 'u1',
        starts_at: FUTURE_SLOTS[0]!.start!,
        ends_at: '2030-03-18T10:00:00.000Z',
        ...stamp,
      }),
    );
    renderTeamPolls();
    const card = await screen.findByRole('article', { name: 'Planning meeting' });
    expect(await within(card).findByText('Pending invitation')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Decline' })).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Accept' }));
    expect(await within(card).findByText('In your calendar')).toBeInTheDocument();
    const invitation = await db.event_invitations.get('i1');
    expect(invitation?.status).toBe('accepted');
    expect(await db.calendar_events.get(invitation!.event_id!)).toMatchObject({
      starts_at: '2030-03-18T09:00:00.000Z',
    });
  });
});

describe('a public Find a time poll', () => {
  it("shows the counts only, and offers a picked time as 'Add to my calendar'", async () => {
    const user = userEvent.setup();
    await db.voting_posts.put(
      makeTimePoll({
        id: 'p2',
        title: 'Meetup',
        options: FUTURE_SLOTS,
        picked_slot_id: 's3',
        time_zone: 'UTC',
        ...stamp,
      }),
    );
    await db.event_invitations.put(makeInvitation({ id: 'i2', post_id: 'p2', user_id: 'u1', all_day: true, ...stamp }));
    render(
      <MemoryRouter>
        <UserDbContext.Provider value={userDbValue(db, { id: 'u1', email: 'ada@example.com', tier: 'team' })}>
          <VotingPage />
        </UserDbContext.Provider>
      </MemoryRouter>,
    );
    const card = await screen.findByRole('article', { name: 'Meetup' });
    const headers = within(within(card).getByRole('table')).getAllByRole('columnheader');
    expect(headers.map((cell) => cell.textContent)).toEqual(['Time', 'Your answer', 'Yes', 'If need be']);
    expect(within(card).getByText(/Picked time:/)).toHaveTextContent('Wed 20 Mar, All day');
    await user.click(await within(card).findByRole('button', { name: 'Add to my calendar' }));
    await waitFor(async () => expect((await db.event_invitations.get('i2'))?.status).toBe('accepted'));
  });
});
