// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
// Dexie's liveQuery only reacts with a global indexedDB (an injected factory never emits).
import 'fake-indexeddb/auto';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useCurrentUser } from '../../../src/backend/current-user-store.ts';
import { deleteUserDb, openUserDb, type LinkboardDb } from '../../../src/data/db.ts';
import { UserDbContext } from '../../../src/data/user-db-context.ts';
import { PaletteHost } from '../../../src/features/palette/palette-host.tsx';
import { forgetPaletteIndex, readPaletteIndex, readPaletteLinks } from '../../../src/features/palette/palette-index.ts';
import { palettePlan, paletteResults, PER_GROUP } from '../../../src/features/palette/palette.tsx';
import { makeDirectory, makeEvent, makeLink, makePoll, makeProfile } from '../../support/builders.ts';
import { userDbValue } from '../links/user-db-value.ts';

let db: LinkboardDb;

beforeAll(() => {
  // cmdk scrolls the active option into view; jsdom has no layout.
  Element.prototype.scrollIntoView ??= () => {};
});

beforeEach(() => {
  db = openUserDb('u1');
  useCurrentUser.setState({
    status: 'signed-in',
    user: { id: 'u1', email: 'ada@example.com', username: 'ada', subscription_tier: 'pro', time_zone: 'UTC' } as never,
  });
});

afterEach(async () => {
  forgetPaletteIndex();
  db.close();
  await deleteUserDb('u1');
});

function Where() {
  const location = useLocation();
  return <output aria-label="Location">{location.pathname + location.search}</output>;
}

function renderHost(main: React.ReactNode = null, path = '/Dashboard/ada') {
  const onSignOut = vi.fn();
  render(
    <MemoryRouter initialEntries={[path]}>
      <UserDbContext.Provider value={userDbValue(db, { id: 'u1', email: 'ada@example.com', tier: 'pro' })}>
        <main>{main}</main>
        <PaletteHost userId="u1" username="ada" onSignOut={onSignOut} />
        <Where />
      </UserDbContext.Provider>
    </MemoryRouter>,
  );
  return { onSignOut, user: userEvent.setup() };
}

const location = () => document.querySelector('output')!.textContent;
const openPalette = async (user: ReturnType<typeof userEvent.setup>) => {
  await user.keyboard('{Control>}k{/Control}');
  return screen.findByRole('dialog', { name: 'Command palette' });
};

async function seed() {
  const dir = makeDirectory({ name: 'Recipes', owner_id: 'u1' });
  await db.link_directories.put(dir);
  await db.saved_links.bulkPut([
    makeLink({ directory_id: dir.id, title: 'Crème brûlée', url: 'https://cooking.example/creme' }),
    makeLink({ directory_id: dir.id, title: 'Deno manual', url: 'https://docs.deno.com/' }),
  ]);
  await db.calendar_events.bulkPut([
    makeEvent({ id: 'e1', title: 'Dentist', owner_id: 'u1' }),
    makeEvent({ id: 't1', title: 'Pay the dentist', owner_id: 'u1', is_task: true }),
  ]);
  await db.voting_posts.put(makePoll({ id: 'p1', title: 'Where to eat?' }));
  return dir;
}

describe('the command palette', () => {
  it('opens with Ctrl+K as a labelled dialog, actions first, and finds items accent-insensitively', async () => {
    await seed();
    const { user } = renderHost();
    expect(screen.queryByRole('dialog')).toBeNull();
    const dialog = await openPalette(user);
    const input = within(dialog).getByRole('combobox');
    expect(input).toHaveFocus();
    expect(input).toHaveAttribute('placeholder', 'Search links, events, tasks, polls or commands...');
    expect(within(dialog).getByRole('option', { name: 'Add Link' })).toBeInTheDocument();
    expect(within(dialog).getByRole('option', { name: /Go to Calendar/ })).toBeInTheDocument();
    // Recent items join once the index is read.
    expect(await within(dialog).findByRole('option', { name: /Deno manual/ })).toBeInTheDocument();
    await user.type(input, 'creme');
    await waitFor(() => expect(within(dialog).getByRole('option', { name: /Crème brûlée/ })).toBeInTheDocument());
    expect(within(dialog).queryByRole('option', { name: /Deno manual/ })).toBeNull();
    await user.clear(input);
    await user.type(input, 'dentist');
    expect(await within(dialog).findByRole('option', { name: /^Dentist/ })).toBeInTheDocument();
    expect(within(dialog).getByRole('option', { name: /Pay the dentist/ })).toBeInTheDocument();
    await user.clear(input);
    await user.type(input, 'zzzz');
    expect(await within(dialog).findByText('No results found.')).toBeInTheDocument();
  });

  it('opens a directory, an event on the calendar and a poll on the board by keyboard', async () => {
    const dir = await seed();
    const { user } = renderHost();
    let dialog = await openPalette(user);
    await user.type(within(dialog).getByRole('combobox'), 'recipes');
    await within(dialog).findByRole('option', { name: /Recipes/ });
    await user.keyboard('{Enter}');
    await waitFor(() => expect(location()).toBe(`/Links/ada/dir/${dir.id}`));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByText('Recipes', { selector: '[role=status]' })).toBeInTheDocument();

    dialog = await openPalette(user);
    // The last query is not kept.
    expect(within(dialog).getByRole('combobox')).toHaveValue('');
    await user.type(within(dialog).getByRole('combobox'), 'pay dent');
    await within(dialog).findByRole('option', { name: /Pay the dentist/ });
    await user.keyboard('{Enter}');
    await waitFor(() => expect(location()).toBe('/Calendar/ada?open=t1'));

    dialog = await openPalette(user);
    await user.type(within(dialog).getByRole('combobox'), 'eat');
    await within(dialog).findByRole('option', { name: /Where to eat/ });
    await user.keyboard('{Enter}');
    await waitFor(() => expect(location()).toBe('/Voting/ada?poll=p1'));
  });

  it('opens a link in a new tab', async () => {
    await seed();
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    const { user } = renderHost();
    const dialog = await openPalette(user);
    await user.type(within(dialog).getByRole('combobox'), 'deno');
    await within(dialog).findByRole('option', { name: /Deno manual/ });
    await user.keyboard('{Enter}');
    expect(open).toHaveBeenCalledWith('https://docs.deno.com/', '_blank', 'noopener,noreferrer');
    open.mockRestore();
  });

  it('runs the actions: add a task, go to a screen, sign out', async () => {
    const { user, onSignOut } = renderHost();
    let dialog = await openPalette(user);
    await user.type(within(dialog).getByRole('combobox'), 'add task');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(location()).toBe('/Calendar/ada?new=task'));

    dialog = await openPalette(user);
    await user.type(within(dialog).getByRole('combobox'), 'upcoming');
    await within(dialog).findByRole('option', { name: /Go to Upcoming/ });
    await user.keyboard('{Enter}');
    await waitFor(() => expect(location()).toBe('/Upcoming/ada'));

    dialog = await openPalette(user);
    await user.type(within(dialog).getByRole('combobox'), 'sign out');
    await user.keyboard('{Enter}');
    expect(onSignOut).toHaveBeenCalledTimes(1);
  });

  it('switches the theme: shown at once, saved on the profile and queued for the other devices', async () => {
    await db.user_profiles.put(makeProfile({ id: 'u1', username: 'ada' }));
    document.documentElement.setAttribute('data-theme', 'light');
    const { user } = renderHost();
    const dialog = await openPalette(user);
    await user.type(within(dialog).getByRole('combobox'), 'dark');
    await within(dialog).findByRole('option', { name: 'Theme: Dark' });
    await user.keyboard('{Enter}');
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark');
    await waitFor(async () => expect((await db.user_profiles.get('u1'))?.theme).toBe('dark'));
    const queued = await db.outbox.toArray();
    expect(queued.map((entry) => [entry.name, entry.args])).toContainEqual(['profile.update', { theme: 'dark' }]);
    expect(screen.getByText('Theme: Dark', { selector: '[role=status]' })).toBeInTheDocument();
  });

  it('offers a typed plan with a date and a title, and takes it to the Calendar dialog', async () => {
    const { user } = renderHost();
    const dialog = await openPalette(user);
    await user.type(within(dialog).getByRole('combobox'), 'Dentist tomorrow 15:30');
    const option = await within(dialog).findByRole('option', { name: /^Add event: Dentist · / });
    expect(option).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(location()).toBe(`/Calendar/ada?new=event&plan=${encodeURIComponent('Dentist tomorrow 15:30')}`),
    );
  });

  it('shows a link added while it is open', async () => {
    const dir = await seed();
    const { user } = renderHost();
    const dialog = await openPalette(user);
    await user.type(within(dialog).getByRole('combobox'), 'zebra');
    await within(dialog).findByText('No results found.');
    await act(() => db.saved_links.put(makeLink({ directory_id: dir.id, title: 'Zebra facts' })));
    expect(await within(dialog).findByRole('option', { name: /Zebra facts/ })).toBeInTheDocument();
  });

  it("holds a small workspace's links: a keystroke matches them without reading the index, until they change", async () => {
    const dir = await seed();
    const where = vi.spyOn(db.saved_links, 'where');
    const { user } = renderHost();
    const dialog = await openPalette(user);
    // Read once the browser is idle after the open.
    const root = dialog.querySelector('[cmdk-root]');
    await waitFor(() => expect(root).toHaveAttribute('data-links', 'held'));
    where.mockClear();
    await user.type(within(dialog).getByRole('combobox'), 'deno');
    expect(within(dialog).getByRole('option', { name: /Deno manual/ })).toBeInTheDocument();
    expect(where).not.toHaveBeenCalledWith('_words');
    // A change lets them go: the index answers (and shows the new link) while they are read again.
    await act(() => db.saved_links.put(makeLink({ directory_id: dir.id, title: 'Deno deploy' })));
    expect(await within(dialog).findByRole('option', { name: /Deno deploy/ })).toBeInTheDocument();
    expect(where).toHaveBeenCalledWith('_words');
    await waitFor(() => expect(root).toHaveAttribute('data-links', 'held'));
    await user.clear(within(dialog).getByRole('combobox'));
    await user.type(within(dialog).getByRole('combobox'), 'deploy');
    expect(await within(dialog).findByRole('option', { name: /Deno deploy/ })).toBeInTheDocument();
  });

  it('keeps its index between opens, and reads it again after a change made while it was closed', async () => {
    const dir = await seed();
    const { user } = renderHost();
    let dialog = await openPalette(user);
    await within(dialog).findByRole('option', { name: /Deno manual/ });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Kept: the items are there in the first render of the next open.
    dialog = await openPalette(user);
    expect(within(dialog).getByRole('option', { name: /Deno manual/ })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await db.saved_links.put(makeLink({ directory_id: dir.id, title: 'Added while closed' }));
    dialog = await openPalette(user);
    expect(await within(dialog).findByRole('option', { name: /Added while closed/ })).toBeInTheDocument();
  });

  it('closes with Escape and with Ctrl+K again', async () => {
    const { user } = renderHost();
    await openPalette(user);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await openPalette(user);
    await user.keyboard('{Control>}k{/Control}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('lists at most a few of each kind', async () => {
    const dir = makeDirectory({ owner_id: 'u1' });
    await db.link_directories.put(dir);
    await db.saved_links.bulkPut(
      Array.from({ length: 30 }, (_, i) => makeLink({ directory_id: dir.id, title: `Guide ${i}` })),
    );
    const found = await readPaletteLinks(db, 'guide', PER_GROUP, 3);
    expect(found).toHaveLength(PER_GROUP);
    const links = paletteResults(await readPaletteIndex(db), 'guide', found).items.find(
      (group) => group.kind === 'link',
    )!;
    expect(links.entries).toHaveLength(PER_GROUP);
    // Nothing typed: the three most recently changed.
    expect(await readPaletteLinks(db, '', PER_GROUP, 3)).toHaveLength(3);
  });

  it('keeps one item of a recurring series: its next occurrence', async () => {
    const now = new Date('2026-03-10T00:00:00Z');
    await db.calendar_events.bulkPut(
      ['2026-03-02', '2026-03-09', '2026-03-16', '2026-03-23'].map((day, i) =>
        makeEvent({ id: `s${i}`, title: 'Weekly', series_id: 'S', starts_at: `${day}T09:00:00.000Z` }),
      ),
    );
    const index = await readPaletteIndex(db, now);
    expect(index.events.map((entry) => entry.id)).toEqual(['s2']);
  });
});

describe('a plan typed in the palette', () => {
  const now = Date.parse('2026-03-10T08:00:00Z');
  it.each([
    ['creme', null],
    ['Dentist', null],
    ['tomorrow 15:30', null],
    ['Crème brûlée recipe', null],
  ])('%j is a search, not a plan', (query, expected) => {
    expect(palettePlan(query, 'Europe/Paris', now)).toBe(expected);
  });

  it('reads a task with its due time in the user’s zone, and keeps the phrase for the dialog', () => {
    const plan = palettePlan('Pay rent tomorrow 9:00 p1', 'America/Los_Angeles', now);
    expect(plan?.label).toMatch(/^Add task: Pay rent · .*9:00/);
    expect(plan?.search).toBe(`?new=task&plan=${encodeURIComponent('Pay rent tomorrow 9:00 p1')}`);
  });

  it('never throws on NUL characters or lone surrogates', () => {
    expect(() => palettePlan('Lunch\u0000 tomorrow \ud800 12:00', 'UTC', now)).not.toThrow();
  });
});

describe('the shortcuts', () => {
  it('g c goes to the calendar and says so', async () => {
    const { user } = renderHost();
    await user.keyboard('gc');
    await waitFor(() => expect(location()).toBe('/Calendar/ada'));
    expect(screen.getByText('My Calendar & Tasks', { selector: '[role=status]' })).toBeInTheDocument();
  });

  it('? lists the shortcuts in a dialog', async () => {
    const { user } = renderHost();
    await user.keyboard('?');
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(dialog).getByText('Open the command palette')).toBeInTheDocument();
    expect(within(dialog).getByText('g c')).toBeInTheDocument();
    // No shortcut fires while a dialog is open.
    await user.keyboard('gc');
    expect(location()).toBe('/Dashboard/ada');
  });

  it('n presses the screen button that carries it; / focuses the search field; neither while typing', async () => {
    const onAdd = vi.fn();
    const { user } = renderHost(
      <>
        <button type="button" aria-keyshortcuts="n" onClick={onAdd}>
          Add Link
        </button>
        <input aria-label="Search" aria-keyshortcuts="/" />
        <input aria-label="Other" />
      </>,
      '/Links/ada/dir/d1',
    );
    await user.keyboard('n');
    expect(onAdd).toHaveBeenCalledTimes(1);
    await user.keyboard('/');
    expect(screen.getByRole('textbox', { name: 'Search' })).toHaveFocus();
    await user.click(screen.getByRole('textbox', { name: 'Other' }));
    await user.keyboard('n/');
    expect(onAdd).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('textbox', { name: 'Other' })).toHaveValue('n/');
  });

  it('n on the grid of directories opens Add Link', async () => {
    const { user } = renderHost(null, '/Links/ada');
    await user.keyboard('n');
    await waitFor(() => expect(location()).toBe('/Links/ada?new=link'));
  });
});
