// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense, useState, type ReactElement } from 'react';
import { MemoryRouter, Link, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import {
  CHUNK_RELOAD_KEY,
  DIALOG_LOAD_FAILED,
  DialogLoadFailed,
  preloadable,
  setReloadPage,
} from '../../src/ui/preloadable.ts';
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

it("a dialog whose chunk failed before and fails again while online loads the page again, once, as Chromium keeps a failed module's fetch", async () => {
  sessionStorage.removeItem(CHUNK_RELOAD_KEY);
  const reload = vi.fn();
  const before = setReloadPage(reload);
  const online = vi.spyOn(navigator, 'onLine', 'get');
  try {
    // The browser's module map keeps the failure: every import of it fails, whatever the network.
    const load = vi.fn(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));
    const NoteDialog = preloadable<NoteDialogProps, { NoteDialog: (props: NoteDialogProps) => ReactElement }>(
      load,
      'NoteDialog',
      DialogLoadFailed,
    );
    function Screen() {
      const [open, setOpen] = useState(false);
      return (
        <ScreenBoundary>
          <button onClick={() => setOpen(true)}>Add Note</button>
          {open && (
            <Suspense fallback={null}>
              <NoteDialog title="Add Note" onClose={() => setOpen(false)} />
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
    // The screen's preload failed (the network went before it was idle).
    await expect(NoteDialog.preload()).rejects.toThrow(TypeError);
    // Opened offline: it says so, and the page stays.
    online.mockReturnValue(false);
    await userEvent.click(screen.getByRole('button', { name: 'Add Note' }));
    await vi.waitFor(() => expect(useToasts.getState().toasts).toHaveLength(1));
    expect(reload).not.toHaveBeenCalled();
    // Opened online: the page loads again, the only way this browser fetches the chunk again.
    online.mockReturnValue(true);
    await userEvent.click(screen.getByRole('button', { name: 'Add Note' }));
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(useToasts.getState().toasts).toHaveLength(1);
    // The new page, soon after: its preload and its open fail again (the chunk is gone from the
    // server). It says so, and does not load again and again.
    cleanup();
    const Again = preloadable<NoteDialogProps, { NoteDialog: (props: NoteDialogProps) => ReactElement }>(
      load,
      'NoteDialog',
      DialogLoadFailed,
    );
    await expect(Again.preload()).rejects.toThrow(TypeError);
    function NewPage() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button onClick={() => setOpen(true)}>Add Note</button>
          {open && (
            <Suspense fallback={null}>
              <Again title="Add Note" onClose={() => setOpen(false)} />
            </Suspense>
          )}
        </>
      );
    }
    render(<NewPage />);
    await userEvent.click(screen.getByRole('button', { name: 'Add Note' }));
    await vi.waitFor(() => expect(useToasts.getState().toasts).toHaveLength(2));
    expect(reload).toHaveBeenCalledTimes(1);
  } finally {
    setReloadPage(before);
    online.mockRestore();
    sessionStorage.removeItem(CHUNK_RELOAD_KEY);
  }
});
