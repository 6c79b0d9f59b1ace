// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
// Dexie's liveQuery only reacts with a global indexedDB (an injected factory never emits).
import 'fake-indexeddb/auto';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useCurrentUser } from '../../../src/backend/current-user-store.ts';
import { deleteUserDb, openUserDb, type LinkboardDb } from '../../../src/data/db.ts';
import { OVERDUE_PAGE } from '../../../src/data/queries/events.ts';
import type { EventRow } from '../../../src/data/rows.ts';
import { UserDbContext } from '../../../src/data/user-db-context.ts';
import { CalendarPage } from '../../../src/features/calendar/calendar-page.tsx';
import { makeEvent } from '../../support/builders.ts';
import { spyUserDb } from '../../support/spy-user-db.ts';

const NOW = new Date('2026-11-24T09:00:00.000Z');
const HOUR = 3_600_000;
const stamp = { owner_id: 'u1', created_at: '2026-10-02T08:00:00.000Z', updated_at: '2026-10-02T08:00:00.000Z' };
let db: LinkboardDb;

const at = (hours: number) => new Date(NOW.getTime() + hours * HOUR).toISOString();

function overdue(i: number): EventRow {
  const due = at(-48 - i);
  return makeEvent({ title: `Late ${i}`, is_task: true, priority: 'low', starts_at: due, ends_at: due, ...stamp });
}

function event(title: string, hours: number): EventRow {
  return makeEvent({ title, starts_at: at(hours), ends_at: at(hours + 1), ...stamp });
}

function renderCalendar() {
  render(
    <MemoryRouter initialEntries={['/Calendar/ada']}>
      <UserDbContext.Provider value={spyUserDb(vi.fn(), db)}>
        <Routes>
          <Route path="*" element={<CalendarPage />} />
        </Routes>
      </UserDbContext.Provider>
    </MemoryRouter>,
  );
}

const counter = (label: string) => screen.getByText(label, { selector: 'p' }).nextElementSibling;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
  vi.setSystemTime(NOW);
  db = openUserDb('u1');
  useCurrentUser.setState({
    status: 'signed-in',
    user: {
      id: 'u1',
      email: 'ada@example.com',
      username: 'ada',
      full_name: 'Ada Lovelace',
      bio: '',
      subscription_tier: 'pro',
      time_zone: 'UTC',
    },
  });
});

afterEach(async () => {
  cleanup();
  vi.useRealTimers();
  db.close();
  await deleteUserDb('u1');
});

describe('the Calendar at size', () => {
  it("shows the first overdue tasks, oldest first, and 'Show more' adds the next ones", async () => {
    const late = Array.from({ length: OVERDUE_PAGE + 12 }, (_, i) => overdue(i));
    await db.calendar_events.bulkPut([...late, event('Gone', -30), event('Soon', 30), event('Later', 24 * 40)]);
    renderCalendar();
    const tasks = await screen.findByRole('region', { name: "Today's Tasks" });
    const toggles = () => within(tasks).getAllByRole('checkbox', { name: /^Complete Late/ });
    expect(toggles()).toHaveLength(OVERDUE_PAGE);
    expect(toggles()[0]).toHaveAccessibleName(`Complete Late ${OVERDUE_PAGE + 11}`);
    expect(counter('Upcoming Events')).toHaveTextContent('2');
    expect(counter('Pending Tasks')).toHaveTextContent(String(OVERDUE_PAGE + 12));
    await userEvent.click(within(tasks).getByRole('button', { name: 'Show more' }));
    await vi.waitFor(() => expect(toggles()).toHaveLength(OVERDUE_PAGE + 12), { timeout: 5000 });
    expect(within(tasks).queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
    // The sections below the today lists come a frame after them.
    const past = await screen.findByRole('region', { name: 'Past Events (1 total)' });
    expect(within(past).getByText('Gone')).toBeInTheDocument();
    expect(await screen.findByRole('grid')).toBeInTheDocument();
  });

  it("has no 'Show more' while every overdue task is shown", async () => {
    await db.calendar_events.bulkPut(Array.from({ length: 3 }, (_, i) => overdue(i)));
    renderCalendar();
    const tasks = await screen.findByRole('region', { name: "Today's Tasks" });
    expect(within(tasks).getAllByRole('checkbox', { name: /^Complete Late/ })).toHaveLength(3);
    expect(within(tasks).queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
  });
});
