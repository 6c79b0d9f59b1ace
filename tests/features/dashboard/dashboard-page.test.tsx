// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
// Dexie's liveQuery only reacts with a global indexedDB (an injected factory never emits).
import 'fake-indexeddb/auto';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useCurrentUser } from '../../../src/backend/current-user-store.ts';
import { deleteUserDb, openUserDb, type LinkboardDb } from '../../../src/data/db.ts';
import type { EventRow, LinkRow, PollRow, UserProfileRow } from '../../../src/data/rows.ts';
import { UserDbContext } from '../../../src/data/user-db-context.ts';
import type { Tier } from '../../../src/domain/plans.ts';
import { DashboardPage, greetingName } from '../../../src/features/dashboard/dashboard-page.tsx';
import { BANNER_DISMISSED_KEY } from '../../../src/features/dashboard/use-banner-dismissal.ts';
import { makeEvent, makeLink, makePoll } from '../../support/builders.ts';
import { spyUserDb } from '../../support/spy-user-db.ts';

// Berlin, Tuesday 24 Nov 2026, 10:00 (09:00 UTC). The month began at 31 Oct 23:00 UTC.
const ZONE = 'Europe/Berlin';
const NOW = new Date('2026-11-24T09:00:00.000Z');
const stamp = { created_at: '2026-11-02T08:00:00.000Z', updated_at: '2026-11-02T08:00:00.000Z' };
let db: LinkboardDb;
let nextId = 0;
const id = (prefix: string) => `${prefix}${(nextId += 1)}`;

function profile(tier: Tier, fields: Partial<UserProfileRow> = {}): UserProfileRow {
  return {
    id: 'u1',
    email: 'ada@example.com',
    full_name: 'Ada Lovelace',
    username: 'ada',
    bio: '',
    subscription_tier: tier,
    time_zone: ZONE,
    ...stamp,
    ...fields,
  };
}

/** The data tests' builders, as this user's rows (owner u1, stamped in the month under test). */
const mine = { owner_id: 'u1', ...stamp };

function link(fields: Partial<LinkRow> = {}): LinkRow {
  const key = id('l');
  return makeLink({
    id: key,
    directory_id: 'd1',
    url: `https://${key}.example`,
    title: key,
    created_by: 'u1',
    ...mine,
    ...fields,
  });
}

function item(title: string, fields: Partial<EventRow> = {}): EventRow {
  return makeEvent({ id: id('e'), title, starts_at: null, ends_at: null, ...mine, ...fields });
}

const task = (title: string, starts_at: string | null, fields: Partial<EventRow> = {}) =>
  item(title, { is_task: true, priority: 'medium', starts_at, ends_at: starts_at, ...fields });

function poll(fields: Partial<PollRow> = {}): PollRow {
  return makePoll({
    id: id('p'),
    options: [
      { text: 'Yes', votes: 0 },
      { text: 'No', votes: 0 },
    ],
    created_by: 'ada',
    created_by_id: 'u1',
    ...stamp,
    ...fields,
  });
}

async function seed(tier: Tier, rows: { links?: number; events?: EventRow[]; polls?: PollRow[] } = {}) {
  await db.user_profiles.put(profile(tier));
  await db.saved_links.bulkPut(Array.from({ length: rows.links ?? 0 }, () => link()));
  await db.calendar_events.bulkPut(rows.events ?? []);
  await db.voting_posts.bulkPut(rows.polls ?? []);
}

function Where() {
  const location = useLocation();
  return <output aria-label="Location">{`${location.pathname}${location.search}`}</output>;
}

function renderDashboard() {
  render(
    <MemoryRouter initialEntries={['/Dashboard/ada']}>
      <UserDbContext.Provider value={spyUserDb(vi.fn(), db)}>
        <Where />
        <Routes>
          <Route path="*" element={<DashboardPage />} />
        </Routes>
      </UserDbContext.Provider>
    </MemoryRouter>,
  );
}

const loaded = () => screen.findByRole('heading', { name: 'Welcome back, Ada!' });
const stat = (label: string) => screen.getByText(label).nextElementSibling;
const focus = () => screen.getByRole('region', { name: "Today's Focus" });

beforeEach(() => {
  // Only the clock is faked: IndexedDB's own timers stay real.
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
  vi.setSystemTime(NOW);
  sessionStorage.clear();
  db = openUserDb('u1');
  useCurrentUser.setState({
    status: 'signed-in',
    user: {
      id: 'u1',
      email: 'ada@example.com',
      username: 'ada',
      full_name: 'Ada Lovelace',
      bio: '',
      subscription_tier: 'free',
      time_zone: ZONE,
    },
  });
});

afterEach(async () => {
  cleanup();
  vi.useRealTimers();
  db.close();
  await deleteUserDb('u1');
});

describe('greetingName', () => {
  it('is the first word of the full name, or there', () => {
    expect(greetingName('  Ada  Lovelace ')).toBe('Ada');
    expect(greetingName('')).toBe('there');
    expect(greetingName(null)).toBe('there');
  });
});

describe('the Dashboard', () => {
  it('shows the skeleton while the local reads are pending, then the greeting, title and metadata', async () => {
    await seed('free');
    renderDashboard();
    expect(screen.getByRole('status', { name: 'Loading dashboard' })).toBeInTheDocument();
    await loaded();
    expect(screen.queryByRole('status', { name: 'Loading dashboard' })).not.toBeInTheDocument();
    expect(document.title).toBe('Dashboard — Linkboard');
    expect(document.querySelector('meta[name="description"]')).toHaveAttribute('content', expect.stringMatching(/\S/));
    expect(document.querySelector('meta[property="og:title"]')).toHaveAttribute('content', 'Dashboard — Linkboard');
    expect(document.querySelector('meta[name="twitter:card"]')).toHaveAttribute('content', 'summary');
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(within(crumbs).getByText('Dashboard')).toHaveAttribute('aria-current', 'page');
  });

  it('counts the user’s links, events, completed tasks and polls created this month', async () => {
    await seed('pro', {
      links: 3,
      events: [
        item('Review', { starts_at: '2026-11-30T09:00:00Z', ends_at: '2026-11-30T10:00:00Z' }),
        item('Retro', { starts_at: '2026-10-01T09:00:00Z', ends_at: '2026-10-01T10:00:00Z' }),
        task('Call', null, { is_completed: true }),
        task('Write', '2026-11-24T12:00:00Z'),
      ],
      polls: [
        poll(),
        poll({ directory_id: 'd1', is_active: false }),
        poll({ created_at: '2026-10-31T22:59:59Z' }), // Berlin 31 Oct: last month
        poll({ created_by_id: 'u2', created_by: 'bo@example.com' }),
      ],
    });
    // A link in a directory shared with the user is its owner's, not the user's.
    await db.saved_links.put(link({ owner_id: 'u2', created_by: 'u2' }));
    renderDashboard();
    await loaded();
    expect(stat('Saved Links')).toHaveTextContent('3');
    expect(stat('Calendar Events')).toHaveTextContent('2');
    expect(stat('Tasks Done')).toHaveTextContent('1');
    expect(stat('Polls This Month')).toHaveTextContent('2');
  });

  it("groups Today's Focus into Events, Overdue and Tasks in the user's zone", async () => {
    await seed('pro', {
      events: [
        item('Standup', { starts_at: '2026-11-24T10:00:00Z', ends_at: '2026-11-24T10:30:00Z' }),
        item('Breakfast', { starts_at: '2026-11-24T06:00:00Z', ends_at: '2026-11-24T07:00:00Z' }),
        item('Tomorrow', { starts_at: '2026-11-25T09:00:00Z', ends_at: '2026-11-25T10:00:00Z' }),
        task('Pay rent', '2026-11-23T08:00:00Z'),
        task('Send report', '2026-11-24T15:00:00Z'),
        task('Buy milk', null),
        task('Filed', '2026-11-24T08:00:00Z', { is_completed: true }),
      ],
    });
    renderDashboard();
    await loaded();
    const card = focus();
    const group = (name: string) => within(card).getByRole('heading', { name }).nextElementSibling as HTMLElement;
    expect(within(group('Events')).getByText('Standup')).toBeInTheDocument();
    expect(within(group('Events')).getByText('11:00')).toBeInTheDocument();
    expect(within(card).queryByText('Breakfast')).not.toBeInTheDocument();
    expect(within(card).queryByText('Tomorrow')).not.toBeInTheDocument();
    expect(within(group('Overdue')).getByText('Pay rent')).toBeInTheDocument();
    expect(
      within(group('Tasks'))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Buy milkDue: Today', 'Send reportDue: 16:00']);
    expect(within(card).queryByText('Filed')).not.toBeInTheDocument();
    expect(within(card).queryByText('Nothing scheduled for today')).not.toBeInTheDocument();
  });

  it("reads 'Nothing scheduled for today' when all groups are empty", async () => {
    await seed('pro', {
      events: [item('Retro', { starts_at: '2026-10-01T09:00:00Z', ends_at: '2026-10-01T10:00:00Z' })],
    });
    renderDashboard();
    await loaded();
    expect(within(focus()).getByText('Nothing scheduled for today')).toBeInTheDocument();
    expect(within(focus()).queryByRole('heading', { level: 3 })).not.toBeInTheDocument();
  });

  it('recomputes Today’s Focus on the 15-second clock', async () => {
    await seed('pro', {
      events: [item('Ending', { starts_at: '2026-11-24T08:30:00Z', ends_at: '2026-11-24T09:00:10Z' })],
    });
    renderDashboard();
    await loaded();
    expect(within(focus()).getByText('Ending')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(15_000);
    });
    expect(within(focus()).getByText('Nothing scheduled for today')).toBeInTheDocument();
  });

  it('shows the upgrade banner to Free users above 70 % of a limit, and it stays dismissed for the session', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime.bind(vi) });
    await seed('free', { links: 22 });
    renderDashboard();
    await loaded();
    const banner = screen.getByRole('region', { name: 'Upgrade' });
    expect(banner).toHaveTextContent('22/30 links');
    expect(banner).not.toHaveTextContent('events this month');
    expect(within(banner).getByRole('link', { name: 'Upgrade to Pro' })).toHaveAttribute('href', '/Upgrade/ada');
    await user.click(within(banner).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('region', { name: 'Upgrade' })).not.toBeInTheDocument();
    expect(sessionStorage.getItem(BANNER_DISMISSED_KEY)).toBe('1');
    cleanup();
    renderDashboard();
    await loaded();
    expect(screen.queryByRole('region', { name: 'Upgrade' })).not.toBeInTheDocument();
  });

  it('shows no upgrade banner at exactly 70 %', async () => {
    await seed('free', {
      links: 21,
      events: Array.from({ length: 7 }, (_, i) => item(`E${i}`, { starts_at: '2026-12-01T09:00:00Z' })),
      polls: [poll(), poll(), poll()],
    });
    renderDashboard();
    await loaded();
    expect(stat('Saved Links')).toHaveTextContent('21');
    expect(screen.queryByRole('region', { name: 'Upgrade' })).not.toBeInTheDocument();
  });

  it('counts votes against 5: four polls this month show the banner', async () => {
    await seed('free', { polls: [poll(), poll(), poll(), poll()] });
    renderDashboard();
    await loaded();
    expect(screen.getByRole('region', { name: 'Upgrade' })).toHaveTextContent('4/5 polls this month');
  });

  it('shows the ad slot to Free users only, and Pro users no banner even at the limit', async () => {
    await seed('free');
    renderDashboard();
    await loaded();
    // The slot's code loads for Free users only.
    expect(await screen.findByRole('complementary', { name: 'Advertisement' })).toBeInTheDocument();
    cleanup();

    await seed('pro', { links: 30 });
    useCurrentUser.setState((state) => ({ user: state.user && { ...state.user, subscription_tier: 'pro' } }));
    renderDashboard();
    await loaded();
    await waitFor(() => expect(stat('Saved Links')).toHaveTextContent('30'));
    expect(screen.queryByRole('complementary', { name: 'Advertisement' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Upgrade' })).not.toBeInTheDocument();
  });

  it('takes the plan from the synced profile first', async () => {
    await seed('team');
    renderDashboard();
    await loaded();
    expect(screen.queryByRole('complementary', { name: 'Advertisement' })).not.toBeInTheDocument();
  });

  it.each([
    ['Add Link', '/Links/ada?new=link'],
    ['Create Event', '/Calendar/ada?new=event'],
    ['Start Vote', '/Voting/ada?new=poll'],
  ])('Quick Add %s opens %s', async (entry, path) => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime.bind(vi) });
    await seed('free');
    renderDashboard();
    await loaded();
    await user.click(screen.getByRole('button', { name: 'Quick Add' }));
    await user.click(await screen.findByRole('menuitem', { name: entry }));
    expect(screen.getByRole('status', { name: 'Location' })).toHaveTextContent(path);
  });

  it('links Quick Access to the screens', async () => {
    await seed('free');
    renderDashboard();
    await loaded();
    const access = screen.getByRole('navigation', { name: 'Quick Access' });
    expect(within(access).getByRole('link', { name: 'All Links' })).toHaveAttribute('href', '/Links/ada');
    expect(within(access).getByRole('link', { name: 'Calendar' })).toHaveAttribute('href', '/Calendar/ada');
    expect(within(access).getByRole('link', { name: 'Upcoming' })).toHaveAttribute('href', '/Upcoming/ada');
  });
});
