// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense, useState, type ReactElement } from 'react';
import { MemoryRouter, Link, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { DIALOG_LOAD_FAILED, DialogLoadFailed, preloadable } from '../../src/ui/preloadable.ts';
import { ScreenBoundary } from '../../src/ui/screen-error-boundary.tsx';
import { useToasts } from '../../src/ui/toast-store.ts';

beforeEach(() => {
  useToasts.setState({ toasts: [] });
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/**
 * A chunk's loader that fails while `offline` is true, as `import()` does for a chunk never fetched
 * when the network is gone and no service worker holds it.
 */
function chunk<M>(module: M) {
  const state = { offline: true, calls: 0 };
  const load = () => {
    state.calls++;
    return state.offline
      ? Promise.reject(new TypeError('Failed to fetch dynamically imported module'))
      : Promise.resolve(module);
  };
  return { state, load };
}

it('a screen whose chunk failed to load loads on the next visit, once it can be fetched', async () => {
  const { state, load } = chunk({ Notes: () => <p>The notes</p> });
  const Notes = preloadable<object, { Notes: () => ReactElement }>(load, 'Notes');
  render(
    <MemoryRouter initialEntries={['/notes']}>
      <Link to="/home">Home</Link>
      <Link to="/notes">Notes</Link>
      <ScreenBoundary>
        <Suspense fallback={<p>loading</p>}>
          <Routes>
            <Route path="/home" element={<p>Home screen</p>} />
            <Route path="/notes" element={<Notes />} />
          </Routes>
        </Suspense>
      </ScreenBoundary>
    </MemoryRouter>,
  );
  expect(await screen.findByRole('alert')).toHaveTextContent('This screen could not be shown.');

  state.offline = false;
  await userEvent.click(screen.getByRole('link', { name: 'Home' }));
  expect(await screen.findByText('Home screen')).toBeInTheDocument();
  await userEvent.click(screen.getByRole('link', { name: 'Notes' }));
  // React's lazy keeps a rejection for good: without a fresh one this stays the error.
  expect(await screen.findByText('The notes')).toBeInTheDocument();
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  expect(state.calls).toBe(2);
});

interface NoteDialogProps {
  title: string;
  onClose(): void;
}

it('a dialog whose chunk cannot be fetched says so and closes, and leaves its screen as it was', async () => {
  const { state, load } = chunk({
    NoteDialog: ({ title, onClose }: NoteDialogProps) => (
      <div role="dialog" aria-label={title}>
        <button onClick={onClose}>Close</button>
      </div>
    ),
  });
  const NoteDialog = preloadable<NoteDialogProps, { NoteDialog: (props: NoteDialogProps) => ReactElement }>(
    load,
    'NoteDialog',
    DialogLoadFailed,
  );
  const closed = vi.fn();
  function Screen() {
    const [open, setOpen] = useState(false);
    return (
      <ScreenBoundary>
        <h1>The directory</h1>
        <button onClick={() => setOpen(true)}>Add Note</button>
        {open && (
          <Suspense fallback={null}>
            <NoteDialog
              title="Add Note"
              onClose={() => {
                closed();
                setOpen(false);
              }}
            />
          </Suspense>
        )}
      </ScreenBoundary>
    );
  }
  render(
    <MemoryRouter>
      <Screen />
    </MemoryRouter>,
  );

  await userEvent.click(screen.getByRole('button', { name: 'Add Note' }));
  await vi.waitFor(() => expect(closed).toHaveBeenCalledTimes(1));
  expect(useToasts.getState().toasts).toEqual([
    expect.objectContaining({ message: DIALOG_LOAD_FAILED, tone: 'error' }),
  ]);
  expect(screen.getByRole('heading', { name: 'The directory' })).toBeInTheDocument();
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

  // Back online: the same button opens the dialog.
  state.offline = false;
  await userEvent.click(screen.getByRole('button', { name: 'Add Note' }));
  expect(await screen.findByRole('dialog', { name: 'Add Note' })).toBeInTheDocument();
  expect(closed).toHaveBeenCalledTimes(1);
  expect(useToasts.getState().toasts).toHaveLength(1);
  expect(state.calls).toBe(2);
});
