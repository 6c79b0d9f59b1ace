// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';

const rpc = vi.hoisted(() => vi.fn());
vi.mock('../../../src/backend/supabase.ts', () => ({ supabase: { rpc } }));

import { SharedDirectoryPage } from '../../../src/features/public/shared-directory-page.tsx';

const DIR = '3f0c1a52-7a4b-4a39-9d0e-0b6f3a2c1d11';
const answer = {
  directory: { id: DIR, name: 'Reading list', description: 'Good articles', color: 'green', has_password: false },
  links: [
    { id: 'l1', url: 'example.com/a', title: 'Article A' },
    { id: 'l2', url: 'https://example.org/b', title: 'Article B' },
  ],
};
const refusal = (hint: string, message: string) => ({ data: null, error: { message, hint, code: '42501' } });

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
    rpc.mockResolvedValue({ data: answer, error: null });
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
    rpc.mockResolvedValue({ data: answer, error: null });
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
            ? { data: answer, error: null }
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

  it.each([
    ['private or missing', () => rpc.mockResolvedValue(refusal('not_found', 'This directory is not available'))],
    ['a failed call', () => rpc.mockRejectedValue(new TypeError('Failed to fetch'))],
  ])('shows the access-denied state for %s', async (_case, arrange) => {
    arrange();
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
