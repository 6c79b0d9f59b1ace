// @vitest-environment jsdom
/** The Calendar's Invitations (docs/product.md, Find a time), on a real local database. */
import '@testing-library/jest-dom/vitest';
import 'fake-indexeddb/auto';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deleteUserDb, openUserDb, type LinkboardDb } from '../../../src/data/db.ts';
import { UserDbContext } from '../../../src/data/user-db-context.ts';
import { setDisplayLocale } from '../../../src/domain/date-format.ts';
import { InvitationsCard } from '../../../src/features/calendar/invitations-card.tsx';
import { userDbValue } from '../links/user-db-value.ts';
import { makeInvitation } from '../../support/builders.ts';

let db: LinkboardDb;

beforeEach(() => {
  setDisplayLocale('en-GB');
  db = openUserDb('u1');
});

afterEach(async () => {
  cleanup();
  setDisplayLocale(undefined);
  db.close();
  await deleteUserDb('u1');
});

function renderCard() {
  render(
    <UserDbContext.Provider value={userDbValue(db, { id: 'u1', email: 'ada@example.com', tier: 'free' })}>
      <InvitationsCard timeZone="Europe/Berlin" />
    </UserDbContext.Provider>,
  );
}

describe("the Calendar's Invitations", () => {
  it('lists the pending invitations, soonest first, in the user’s zone', async () => {
    await db.event_invitations.bulkPut([
      makeInvitation({
        id: 'i1',
        user_id: 'u1',
        title: 'Retro',
        starts_at: '2030-03-19T09:00:00.000Z',
        ends_at: '2030-03-19T10:00:00.000Z',
        inviter_name: 'bob',
      }),
      makeInvitation({
        id: 'i2',
        user_id: 'u1',
        title: 'Offsite',
        all_day: true,
        starts_at: '2030-03-17T23:00:00.000Z',
        ends_at: '2030-03-18T23:00:00.000Z',
      }),
      makeInvitation({ id: 'i3', user_id: 'u1', title: 'Old', status: 'accepted', event_id: 'e0' }),
    ]);
    renderCard();
    const section = await screen.findByRole('region', { name: 'Invitations' });
    const items = within(section).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('Offsite18 Mar 2030, All day'),
      expect.stringContaining('Retro19 Mar 2030, 10:00–11:00 · bob'),
    ]);
  });

  it('Accept adds the event and the invitation leaves; Decline declines it', async () => {
    const user = userEvent.setup();
    await db.event_invitations.bulkPut([
      makeInvitation({ id: 'i1', user_id: 'u1', title: 'Retro' }),
      makeInvitation({ id: 'i2', user_id: 'u1', title: 'Lunch' }),
    ]);
    renderCard();
    await user.click(await screen.findByRole('button', { name: 'Accept Retro' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Accept Retro' })).not.toBeInTheDocument());
    const accepted = await db.event_invitations.get('i1');
    expect(accepted?.status).toBe('accepted');
    expect(await db.calendar_events.get(accepted!.event_id!)).toMatchObject({ title: 'Retro', owner_id: 'u1' });
    await user.click(screen.getByRole('button', { name: 'Decline Lunch' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Invitations' })).not.toBeInTheDocument());
    expect((await db.event_invitations.get('i2'))?.status).toBe('declined');
  });
});
