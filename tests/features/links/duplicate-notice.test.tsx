// @vitest-environment jsdom
import { whereGroup } from '../../../src/data/group-range.ts';
import '@testing-library/jest-dom/vitest';
// Dexie's liveQuery only reacts with a global indexedDB (an injected factory never emits).
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useCurrentUser } from '../../../src/backend/current-user-store.ts';
import { deleteUserDb, openUserDb, type LinkboardDb } from '../../../src/data/db.ts';
import { UserDbContext } from '../../../src/data/user-db-context.ts';
import { LinkDialog } from '../../../src/features/links/link-dialog.tsx';
import { ME, OTHER, makeDirectory, makeLink, makeMember } from '../../support/builders.ts';
import { userDbValue } from './user-db-value.ts';

const email = 'ada@example.com';
const server = { created_at: '2026-12-31T22:59:00.123456+00:00', updated_at: '2026-12-31T22:59:00.123456+00:00' };
let db: LinkboardDb;
let onClose: ReturnType<typeof vi.fn>;

beforeEach(async () => {
  db = openUserDb(ME);
  onClose = vi.fn();
  useCurrentUser.setState({
    status: 'signed-in',
    user: { id: ME, email, username: 'ada', subscription_tier: 'pro', time_zone: 'UTC' } as never,
  });
  await db.link_directories.bulkPut([
    makeDirectory({ id: 'inbox', name: 'Inbox', owner_id: ME, ...server }),
    makeDirectory({ id: 'reading', name: 'Reading', owner_id: ME, ...server }),
    makeDirectory({ id: 'viewed', name: 'Their picks', owner_id: OTHER, ...server }),
  ]);
  await db.directory_members.put(makeMember({ directory_id: 'viewed', user_email: email, role: 'viewer', ...server }));
  await db.saved_links.bulkPut([
    makeLink({ id: 'saved', directory_id: 'reading', url: 'https://example.org/page', title: 'Page', ...server }),
    makeLink({ id: 'theirs', directory_id: 'viewed', url: 'https://viewed.example/a', owner_id: OTHER, ...server }),
  ]);
});

afterEach(async () => {
  cleanup();
  db.close();
  await deleteUserDb(ME);
});

function Where() {
  return <p data-testid="location">{useLocation().pathname}</p>;
}

function renderDialog(initial?: { url: string; title: string }) {
  render(
    <MemoryRouter initialEntries={['/Links/ada/dir/inbox']}>
      <UserDbContext.Provider value={userDbValue(db, { id: ME, email, tier: 'pro' })}>
        <Routes>
          <Route
            path="/Links/ada/dir/inbox"
            element={
              <LinkDialog
                directoryId="inbox"
                link={null}
                tier="pro"
                initial={initial}
                onClose={onClose as () => void}
              />
            }
          />
          <Route path="*" element={<Where />} />
        </Routes>
      </UserDbContext.Provider>
    </MemoryRouter>,
  );
}

const urls = async () => (await db.saved_links.toArray()).map((link) => link.url).sort();

describe("Add Link's duplicate notice", () => {
  it('says where a URL typed with tracking is saved, as a live status with a real link, and saves anyway', async () => {
    const user = userEvent.setup();
    renderDialog();
    const status = screen.getByRole('status');
    expect(status).toBeEmptyDOMElement();
    await user.type(screen.getByLabelText('URL'), 'https://Example.org/page/?utm_source=newsletter');
    await waitFor(() => expect(status).toHaveTextContent('Already saved in Reading'));
    expect(within(status).getByRole('link', { name: 'Reading' })).toHaveAttribute('href', '/Links/ada/dir/reading');
    await user.type(screen.getByLabelText('Title'), 'Again');
    await user.click(screen.getByRole('button', { name: 'Save anyway' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(await urls()).toEqual([
      'https://Example.org/page/?utm_source=newsletter',
      'https://example.org/page',
      'https://viewed.example/a',
    ]);
  });

  it('says nothing for a new URL, nor for one only in a directory shared to view, and adds it at once', async () => {
    const user = userEvent.setup();
    renderDialog();
    await user.type(screen.getByLabelText('URL'), 'viewed.example/a');
    await user.type(screen.getByLabelText('Title'), 'Mine now');
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
    // Saved at once: the check on saving finds only the viewed directory's copy, which does not count.
    await user.click(screen.getByRole('button', { name: 'Add Link' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(await urls()).toContain('https://viewed.example/a');
    expect((await whereGroup(db.saved_links, 'directory_id', 'inbox').toArray()).map((l) => l.title)).toEqual([
      'Mine now',
    ]);
  });

  it('checks again on saving: a duplicate saved before the notice showed is stopped and said', async () => {
    renderDialog({ url: 'http://www.example.org/page#:~:text=quote', title: 'Shared' });
    // Pressed at once, before the lookup as typed has answered.
    fireEvent.click(screen.getByRole('button', { name: 'Add Link' }));
    const status = screen.getByRole('status');
    await waitFor(() => expect(status).toHaveTextContent('Already saved in Reading'));
    expect(screen.getByRole('button', { name: 'Save anyway' })).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
    expect(await whereGroup(db.saved_links, 'directory_id', 'inbox').count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
  });

  it('opens the directory the link is in, closing the dialog', async () => {
    const user = userEvent.setup();
    renderDialog({ url: 'example.org/page', title: 'Shared' });
    const link = await within(screen.getByRole('status')).findByRole('link', { name: 'Reading' });
    await user.click(link);
    expect(screen.getByTestId('location')).toHaveTextContent('/Links/ada/dir/reading');
    expect(onClose).toHaveBeenCalled();
  });
});
