// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const rpc = vi.hoisted(() => vi.fn());
vi.mock('../../../src/backend/anon-rpc.ts', () => ({ anonRpc: rpc }));

import { useCurrentUser } from '../../../src/backend/current-user-store.ts';
import { SharedDirectoryPage } from '../../../src/features/public/shared-directory-page.tsx';
import { freshVisitor, noNetwork, ok, refusal } from './visitor-rpc.ts';

const DIR = '3f0c1a52-7a4b-4a39-9d0e-0b6f3a2c1d11';
const answer = {
  directory: { id: DIR, name: 'Reading list', description: 'Good articles', color: 'green', has_password: false },
  links: [
    { id: 'l1', url: 'example.com/a', title: 'Article A' },
    { id: 'l2', url: 'https://example.org/b', title: 'Article B' },
  ],
};

beforeEach(freshVisitor);

afterEach(() => {
  cleanup();
  rpc.mockReset();
});

function open(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/Links/dir/:dirId" element={<SharedDirectoryPage />} />
        <Route path="/Links/:username/dir/:dirId" element={<SharedDirectoryPage />} />
        <Route path="/share/dir/*" element={<SharedDirectoryPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('SharedDirectoryPage', () => {
  it('shows a public directory with its links opening in a new tab, https:// prepended', async () => {
    rpc.mockResolvedValue(ok(answer));
    open(`/Links/ann/dir/${DIR}`);
    expect(await screen.findByRole('heading', { name: 'Reading list' })).toBeInTheDocument();
    expect(screen.getByText('Good articles')).toBeInTheDocument();
    const a = screen.getByRole('link', { name: 'Article A' });
    expect(a).toHaveAttribute('href', 'https://example.com/a');
    expect(a).toHaveAttribute('target', '_blank');
    expect(a.getAttribute('rel')).toContain('noopener');
    expect(screen.getByRole('link', { name: 'Article B' })).toHaveAttribute('href', 'https://example.org/b');
    expect(rpc).toHaveBeenCalledWith('get_public_directory', { p_directory_id: DIR });
  });

  it('reads the id from /share/dir/{id} and /Links/dir/{id}', async () => {
    rpc.mockResolvedValue(ok(answer));
    open(`/share/dir/${DIR}`);
    expect(await screen.findByRole('heading', { name: 'Reading list' })).toBeInTheDocument();
    cleanup();
    open(`/Links/dir/${DIR}`);
    expect(await screen.findByRole('heading', { name: 'Reading list' })).toBeInTheDocument();
    expect(rpc).toHaveBeenCalledTimes(2);
  });

  it('asks for the password, refuses a wrong one keeping the form, and opens with the right one', async () => {
    rpc.mockImplementation((_name: string, args: { p_password?: string }) =>
      Promise.resolve(
        args.p_password === undefined
          ? refusal('password_required', 'This directory is password protected.')
          : args.p_password === 'sesame'
            ? ok(answer)
            : refusal('forbidden', 'Wrong password.'),
      ),
    );
    const user = userEvent.setup();
    open(`/Links/dir/${DIR}`);
    expect(await screen.findByText('This directory is password protected.')).toBeInTheDocument();
    const field = screen.getByLabelText('Password');
    await user.type(field, 'guess');
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByText('Wrong password.')).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toHaveValue('guess');
    expect(screen.queryByText('Reading list')).not.toBeInTheDocument();

    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'sesame');
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByRole('heading', { name: 'Reading list' })).toBeInTheDocument();
    expect(rpc).toHaveBeenLastCalledWith('get_public_directory', { p_directory_id: DIR, p_password: 'sesame' });
  });

  it('shows the access-denied state for a private or missing directory', async () => {
    rpc.mockResolvedValue(refusal('not_found', 'This directory is not available', 404));
    open(`/Links/dir/${DIR}`);
    expect(await screen.findByRole('heading', { name: 'This directory is not available' })).toBeInTheDocument();
    expect(
      screen.getByText("It may be private or you don't have access. Ask the owner to make it public or invite you."),
    ).toBeInTheDocument();
  });

  it('shows the access-denied state for a malformed id without calling the server', async () => {
    open('/Links/dir/not-an-id');
    expect(await screen.findByRole('heading', { name: 'This directory is not available' })).toBeInTheDocument();
    expect(rpc).not.toHaveBeenCalled();
  });
});

describe('the public header of a visitor page', () => {
  it('leads home and calls the visitor to sign in or create a free account', async () => {
    rpc.mockResolvedValue(ok(answer));
    open(`/share/dir/${DIR}`);
    await screen.findByRole('heading', { name: 'Reading list' });
    expect(screen.getByRole('link', { name: 'Linkboard' })).toHaveAttribute('href', '/');
    const header = screen.getByRole('navigation', { name: 'Main' });
    expect(within(header).getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/Login');
    expect(within(header).getByRole('link', { name: 'Create your free account' })).toHaveAttribute(
      'href',
      '/Login?mode=sign-up',
    );
  });

  it('offers a signed-in user their links instead', async () => {
    useCurrentUser.setState({ status: 'signed-in', user: { id: 'u1', username: 'ada' } as never });
    rpc.mockResolvedValue(ok(answer));
    open(`/share/dir/${DIR}`);
    await screen.findByRole('heading', { name: 'Reading list' });
    expect(screen.getByRole('link', { name: 'My Links' })).toHaveAttribute('href', '/Links/ada');
    expect(screen.queryByRole('link', { name: 'Create your free account' })).toBeNull();
  });
});

describe('a visitor offline', () => {
  const denied = 'This directory is not available';

  it('sees the copy last seen here, and when it is from, never "may be private"', async () => {
    rpc.mockResolvedValue(ok(answer));
    open(`/share/dir/${DIR}`);
    await screen.findByRole('heading', { name: 'Reading list' });
    cleanup();

    rpc.mockResolvedValue(noNetwork());
    open(`/Links/dir/${DIR}`);
    expect(await screen.findByRole('heading', { name: 'Reading list' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Article A' })).toHaveAttribute('href', 'https://example.com/a');
    expect(screen.getByRole('status')).toHaveTextContent(/^You are offline\. This is the copy you saw on .*\d/);
    expect(screen.queryByText(denied)).toBeNull();
  });

  it.each([
    ['no response', () => rpc.mockResolvedValue(noNetwork())],
    ['a thrown fetch', () => rpc.mockRejectedValue(new TypeError('Failed to fetch'))],
    ['a gateway without the server', () => rpc.mockResolvedValue({ ...noNetwork(), status: 503 })],
  ])("says 'You are offline' for a directory never seen here (%s)", async (_case, arrange) => {
    arrange();
    open(`/share/dir/${DIR}`);
    expect(await screen.findByRole('heading', { name: 'You are offline' })).toBeInTheDocument();
    expect(screen.queryByText(denied)).toBeNull();

    // Back online, the page loads by itself.
    rpc.mockReset();
    rpc.mockResolvedValue(ok(answer));
    act(() => void window.dispatchEvent(new Event('online')));
    expect(await screen.findByRole('heading', { name: 'Reading list' })).toBeInTheDocument();
  });

  it('forgets the copy of a directory that became private', async () => {
    rpc.mockResolvedValue(ok(answer));
    open(`/share/dir/${DIR}`);
    await screen.findByRole('heading', { name: 'Reading list' });
    cleanup();
    rpc.mockResolvedValue(refusal('not_found', denied, 404));
    open(`/share/dir/${DIR}`);
    await screen.findByRole('heading', { name: denied });
    cleanup();
    rpc.mockResolvedValue(noNetwork());
    open(`/share/dir/${DIR}`);
    expect(await screen.findByRole('heading', { name: 'You are offline' })).toBeInTheDocument();
  });

  it('keeps a password-protected directory only once unlocked in this browser', async () => {
    const hidden = { ...answer, directory: { ...answer.directory, has_password: true } };
    // Answered without a password (as to its owner): not unlocked here, so not kept.
    rpc.mockResolvedValue(ok(hidden));
    open(`/share/dir/${DIR}`);
    await screen.findByRole('heading', { name: 'Reading list' });
    cleanup();
    rpc.mockResolvedValue(noNetwork());
    open(`/share/dir/${DIR}`);
    expect(await screen.findByRole('heading', { name: 'You are offline' })).toBeInTheDocument();
    cleanup();

    rpc.mockImplementation((_name: string, args: { p_password?: string }) =>
      Promise.resolve(
        args.p_password === 'sesame'
          ? ok(hidden)
          : refusal('password_required', 'This directory is password protected.'),
      ),
    );
    const user = userEvent.setup();
    open(`/share/dir/${DIR}`);
    await user.type(await screen.findByLabelText('Password'), 'sesame');
    await user.click(screen.getByRole('button', { name: 'Open' }));
    await screen.findByRole('heading', { name: 'Reading list' });
    cleanup();
    rpc.mockReset();
    rpc.mockResolvedValue(noNetwork());
    open(`/share/dir/${DIR}`);
    expect(await screen.findByRole('heading', { name: 'Reading list' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('You are offline.');
  });
});

describe('a throttled password try (HTTP 429)', () => {
  it("shows the server's plain message in the password form", async () => {
    rpc.mockImplementation((_name: string, args: { p_password?: string }) =>
      Promise.resolve(
        args.p_password === undefined
          ? refusal('password_required', 'This directory is password protected.')
          : {
              data: null,
              error: { message: 'Too many password attempts. Try again in 60 seconds.', hint: 'throttled', code: '' },
              status: 429,
            },
      ),
    );
    const user = userEvent.setup();
    open(`/share/dir/${DIR}`);
    await user.type(await screen.findByLabelText('Password'), 'guess');
    await user.click(screen.getByRole('button', { name: 'Open' }));
    const form = screen.getByRole('form', { name: 'Directory password' });
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'Too many password attempts. Try again in 60 seconds.',
    );
    expect(screen.getByLabelText('Password')).toHaveValue('guess');
  });
});
