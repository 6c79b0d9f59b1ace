// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import 'fake-indexeddb/auto';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLiveQuery } from 'dexie-react-hooks';
import { MemoryRouter, Link, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { deleteUserDb, openUserDb, type LinkboardDb } from '../../src/data/db.ts';
import { ScreenBoundary } from '../../src/ui/screen-error-boundary.tsx';

let db: LinkboardDb;
beforeEach(() => {
  db = openUserDb('boundary');
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  db.close();
  await deleteUserDb('boundary');
});

/** A screen whose live query fails, as one does when IndexedDB refuses a read. */
function Broken() {
  const rows = useLiveQuery(() => db.saved_links.where('no_such_index').equals('x').toArray(), []);
  return <p>{rows?.length ?? 'loading'} links</p>;
}

function app(reload: () => void) {
  return (
    <MemoryRouter initialEntries={['/broken']}>
      <nav>
        <Link to="/fine">Elsewhere</Link>
      </nav>
      <ScreenBoundary reload={reload}>
        <Routes>
          <Route path="/broken" element={<Broken />} />
          <Route path="/fine" element={<p>All good</p>} />
        </Routes>
      </ScreenBoundary>
    </MemoryRouter>
  );
}

it('shows a way out instead of a blank page when a screen throws, and tries again on another path', async () => {
  const reload = vi.fn();
  render(app(reload));
  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('Something went wrong');
  expect(alert).toHaveTextContent('This screen could not be shown. Your saved data was not changed.');
  // The navigation outside the boundary survives.
  expect(screen.getByRole('link', { name: 'Elsewhere' })).toBeInTheDocument();

  await userEvent.click(screen.getByRole('button', { name: 'Reload' }));
  expect(reload).toHaveBeenCalledTimes(1);

  await userEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
  expect(await screen.findByText('All good')).toBeInTheDocument();
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
});
