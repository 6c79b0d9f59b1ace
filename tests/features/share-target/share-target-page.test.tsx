// @vitest-environment jsdom
import { whereGroup } from '../../../src/data/group-range.ts';
import '@testing-library/jest-dom/vitest';
// Dexie's liveQuery only reacts with a global indexedDB (an injected factory never emits).
import 'fake-indexeddb/auto';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useCurrentUser } from '../../../src/backend/current-user-store.ts';
import { deleteUserDb, openUserDb, type LinkboardDb } from '../../../src/data/db.ts';
import type { MemberRow } from '../../../src/data/rows.ts';
import { UserDbContext } from '../../../src/data/user-db-context.ts';
import { ShareTargetPage } from '../../../src/features/links/share-target/share-target-page.tsx';
import { useToasts } from '../../../src/ui/toast-store.ts';
import { lastToast, userDbValue } from '../links/user-db-value.ts';
import { ME, OTHER, makeDirectory, makeLink, makeMember } from '../../support/builders.ts';

const email = 'ada@example.com';
let db: LinkboardDb;

const directory = (id: string, name: string, owner_id = ME) => makeDirectory({ id, name, owner_id });
const member = (directory_id: string, role: MemberRow['role']) => makeMember({ directory_id, role, user_email: email });

beforeEach(() => {
  db = openUserDb(ME);
  localStorage.clear();
  useToasts.setState({ toasts: [] });
  useCurrentUser.setState({
    status: 'signed-in',
    user: { id: ME, email, username: 'ada', subscription_tier: 'free', time_zone: 'UTC' } as never,
  });
});

afterEach(async () => {
  cleanup();
  db.close();
  await deleteUserDb(ME);
});

function Where() {
  const location = useLocation();
  return <p data-testid="location">{location.pathname}</p>;
}

/** The screen on the real data layer: mutations are checked, applied and queued locally. */
function renderAt(query: string) {
  const value = userDbValue(db, { id: ME, email, tier: 'free' });
  render(
    <MemoryRouter initialEntries={[`/share-target${query}`]}>
      <UserDbContext.Provider value={value}>
        <Routes>
          <Route path="/share-target" element={<ShareTargetPage />} />
          <Route path="*" element={<Where />} />
        </Routes>
      </UserDbContext.Provider>
    </MemoryRouter>,
  );
}

const dialog = () => screen.findByRole('dialog', { name: 'Add Link' });
const field = (label: string) => screen.getByLabelText(label);

describe('the share target', () => {
  it('prefills the url found in the text and titles it with the rest of the text', async () => {
    await db.link_directories.put(directory('d1', 'Reading'));
    renderAt(`?text=${encodeURIComponent('Worth a read https://news.example/a?b=1')}`);
    await dialog();
    expect(field('URL')).toHaveValue('https://news.example/a?b=1');
    expect(field('Title')).toHaveValue('Worth a read');
  });

  it("prefers the url and title given, and falls back to the url's host", async () => {
    await db.link_directories.put(directory('d1', 'Reading'));
    renderAt(`?title=Given&text=${encodeURIComponent('other https://other.example')}&url=https://given.example/p`);
    await dialog();
    expect(field('URL')).toHaveValue('https://given.example/p');
    expect(field('Title')).toHaveValue('Given');
    cleanup();
    renderAt('?url=https://blog.example.org/post/1');
    await dialog();
    expect(field('Title')).toHaveValue('blog.example.org');
  });

  it('lists owned directories first, then shared ones the user edits, and queues the link in the chosen one', async () => {
    const user = userEvent.setup();
    await db.link_directories.bulkPut([
      directory('d1', 'Work'),
      directory('d2', 'Archive'),
      directory('s1', 'Alpha team', OTHER),
      directory('s2', 'Read only', OTHER),
    ]);
    await db.directory_members.bulkPut([member('s1', 'editor'), member('s2', 'viewer')]);
    renderAt('?title=Shared&url=https://shared.example/x');
    await dialog();
    const chooser = field('Directory');
    await waitFor(() =>
      expect([...chooser.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
        'Archive',
        'Work',
        'Alpha team (shared)',
      ]),
    );
    expect(chooser).toHaveValue('d2');
    await user.selectOptions(chooser, 's1');
    await user.click(screen.getByRole('button', { name: 'Add Link' }));

    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/Links/ada/dir/s1'));
    const saved = await whereGroup(db.saved_links, 'directory_id', 's1').toArray();
    expect(saved).toMatchObject([{ url: 'https://shared.example/x', title: 'Shared', owner_id: OTHER }]);
    const queued = await db.outbox.toArray();
    expect(queued.map((row) => row.name)).toEqual(['link.create']);
  });

  it('preselects the directory last saved to', async () => {
    const user = userEvent.setup();
    await db.link_directories.bulkPut([directory('d1', 'Alpha'), directory('d2', 'Beta')]);
    renderAt('?url=https://one.example');
    await dialog();
    await user.selectOptions(field('Directory'), 'd2');
    await user.click(screen.getByRole('button', { name: 'Add Link' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/Links/ada/dir/d2'));
    cleanup();
    renderAt('?url=https://two.example');
    await dialog();
    expect(field('Directory')).toHaveValue('d2');
  });

  it("refuses a page that is not a web page's (chrome:, file:, ftp:) before any field, and saves nothing", async () => {
    const user = userEvent.setup();
    await db.link_directories.put(directory('d1', 'Reading'));
    for (const url of ['chrome://settings/', 'file:///home/ada/a.html', 'ftp://files.example/x']) {
      renderAt(`?title=Files&url=${encodeURIComponent(url)}&note=selected`);
      expect(await screen.findByRole('alert')).toHaveTextContent('Only web pages (http or https) can be saved.');
      expect(screen.queryByRole('dialog', { name: 'Add Link' })).not.toBeInTheDocument();
      expect(screen.queryByLabelText('URL')).not.toBeInTheDocument();
      cleanup();
    }
    renderAt('?url=about:blank');
    await user.click(await screen.findByRole('button', { name: 'Back to Links' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/Links/ada');
    expect(await db.outbox.count()).toBe(0);
    expect(await db.saved_links.count()).toBe(0);
  });

  it('fills Notes with the selected text (note) and saves it with the link', async () => {
    const user = userEvent.setup();
    await db.link_directories.put(directory('d1', 'Reading'));
    const note = 'A quote\nfrom the page';
    renderAt(`?url=https://quoted.example/a&title=Quoted&note=${encodeURIComponent(note)}`);
    await dialog();
    expect(field('Notes')).toHaveValue(note);
    await user.click(screen.getByRole('button', { name: 'Add Link' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/Links/ada/dir/d1'));
    expect(await db.saved_links.toArray()).toMatchObject([
      { url: 'https://quoted.example/a', title: 'Quoted', notes: note },
    ]);
  });

  it('offers to create a directory when the user has none, then continues to Add Link', async () => {
    const user = userEvent.setup();
    renderAt('?title=First&url=https://first.example');
    expect(await screen.findByText('Create a directory first')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create Directory' }));
    const create = await screen.findByRole('dialog', { name: 'Create Directory' });
    await user.type(field('Name'), 'Inbox');
    await user.click(create.querySelector('button[type="submit"]')!);
    await dialog();
    expect(field('Title')).toHaveValue('First');
    const inbox = (await db.link_directories.toArray())[0]!;
    expect(field('Directory')).toHaveValue(inbox.id);
    await user.click(screen.getByRole('button', { name: 'Add Link' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(`/Links/ada/dir/${inbox.id}`));
    expect(await db.saved_links.count()).toBe(1);
  });

  it("says where a page shared from YouTube's share sheet is already saved, and follows it there", async () => {
    const user = userEvent.setup();
    await db.link_directories.bulkPut([directory('d1', 'Inbox'), directory('d2', 'Music')]);
    await db.saved_links.put(makeLink({ directory_id: 'd2', url: 'https://youtu.be/dQw4w9WgXcQ', title: 'Rick' }));
    const text = 'Rick Astley - Never Gonna Give You Up https://youtu.be/dQw4w9WgXcQ?si=Hk3sX8bQ2mL0pZ1a';
    renderAt(`?text=${encodeURIComponent(text)}`);
    const form = await dialog();
    const [notice] = await within(form).findAllByText(
      (_, element) => element?.textContent === 'Already saved in Music',
    );
    expect(notice!.closest('[role=status]')).not.toBeNull();
    expect(within(form).getByRole('button', { name: 'Save anyway' })).toBeInTheDocument();
    await user.click(within(form).getByRole('link', { name: 'Music' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/Links/ada/dir/d2'));
    expect(await db.outbox.count()).toBe(0);
  });

  it('keeps the Free link limit', async () => {
    const user = userEvent.setup();
    await db.link_directories.put(directory('d1', 'Full'));
    await db.saved_links.bulkPut(Array.from({ length: 30 }, () => makeLink({ directory_id: 'd1' })));
    renderAt('?title=One%20more&url=https://more.example');
    const form = await dialog();
    // Said before the save, with the way to upgrade (the other status is the duplicate notice's, empty).
    const [notice] = (await within(form).findAllByRole('status')).filter((status) => status.textContent !== '');
    expect(notice).toHaveTextContent('Upgrade to Pro to save more links.');
    expect(within(notice!).getByRole('link', { name: 'Upgrade to Pro' })).toHaveAttribute('href', '/Upgrade/ada');
    // A save anyway is refused inside the dialog, which keeps the focus; no toast.
    await user.click(screen.getByRole('button', { name: 'Add Link' }));
    const alert = await within(form).findByText('Upgrade to Pro to save more links.', { selector: '[role=alert]' });
    await waitFor(() => expect(alert).toHaveFocus());
    expect(lastToast()).toBeUndefined();
    expect(await db.saved_links.count()).toBe(30);
    expect(screen.getByRole('dialog', { name: 'Add Link' })).toBeInTheDocument();
  });

  it('goes back to the directories on Cancel', async () => {
    const user = userEvent.setup();
    await db.link_directories.put(directory('d1', 'Reading'));
    renderAt('?url=https://a.example');
    await dialog();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/Links/ada');
    expect(await db.outbox.count()).toBe(0);
  });
});
