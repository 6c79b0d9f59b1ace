// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const rpc = vi.hoisted(() => vi.fn());
vi.mock('../../../src/backend/anon-rpc.ts', () => ({ anonRpc: rpc }));

import { PublicProfilePage } from '../../../src/features/public/public-profile-page.tsx';
import { freshVisitor, noNetwork, ok } from './visitor-rpc.ts';

const profile = {
  profile: { username: 'ann', full_name: 'Ann Lee', bio: 'I collect links.', subscription_tier: 'pro' },
  directories: [
    {
      id: 'd1',
      name: 'Design',
      description: 'Inspiration',
      color: 'pink',
      has_password: false,
      link_count: 5,
      links: [
        { id: 'l1', url: 'dribbble.com', title: 'Dribbble' },
        { id: 'l2', url: 'https://figma.com', title: 'Figma' },
        { id: 'l3', url: 'http://example.com', title: 'Example' },
      ],
    },
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
        <Route path="/PublicProfile" element={<PublicProfilePage />} />
        <Route path="/PublicProfile/:username" element={<PublicProfilePage />} />
        <Route path="/:username" element={<PublicProfilePage />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('PublicProfilePage', () => {
  it('shows the profile and its public collections with the first 3 links and +n more links', async () => {
    rpc.mockResolvedValue(ok(profile));
    open('/PublicProfile?user=ann');
    expect(await screen.findByRole('heading', { name: 'Ann Lee' })).toBeInTheDocument();
    expect(rpc).toHaveBeenCalledWith('get_public_profile', { p_username: 'ann' });
    expect(screen.getByText('@ann')).toBeInTheDocument();
    expect(screen.getByText('I collect links.')).toBeInTheDocument();
    expect(screen.getByText('Pro')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Public Collections' })).toBeInTheDocument();
    const card = screen.getByRole('heading', { name: 'Design' }).closest('li')!;
    expect(within(card).getByRole('link', { name: 'Dribbble' })).toHaveAttribute('href', 'https://dribbble.com');
    expect(within(card).getByRole('link', { name: 'Example' })).toHaveAttribute('href', 'http://example.com');
    expect(within(card).getByRole('link', { name: 'Figma' })).toHaveAttribute('target', '_blank');
    expect(within(card).getByText('+2 more links')).toBeInTheDocument();
  });

  it('takes the username from the last path segment and shows the Team badge', async () => {
    rpc.mockResolvedValue(ok({ ...profile, profile: { ...profile.profile, subscription_tier: 'team' } }));
    open('/PublicProfile/ann');
    expect(await screen.findByText('Team')).toBeInTheDocument();
    expect(rpc).toHaveBeenCalledWith('get_public_profile', { p_username: 'ann' });
  });

  it('shows No Public Collections when the user has none', async () => {
    rpc.mockResolvedValue(ok({ profile: { ...profile.profile, subscription_tier: 'free' }, directories: [] }));
    open('/PublicProfile/ann');
    expect(await screen.findByText('No Public Collections')).toBeInTheDocument();
    expect(screen.queryByText('Pro')).not.toBeInTheDocument();
  });

  it.each([
    ['no such user', () => rpc.mockResolvedValue(ok(null))],
    ['an error', () => rpc.mockResolvedValue({ data: null, error: { message: 'boom' }, status: 400 })],
  ])('shows Profile Not Found for %s', async (_case, arrange) => {
    arrange();
    open('/PublicProfile/ghost');
    expect(await screen.findByRole('heading', { name: 'Profile Not Found' })).toBeInTheDocument();
    expect(screen.getByText("This user profile doesn't exist or isn't public.")).toBeInTheDocument();
  });

  it('shows Profile Not Found without a username', async () => {
    open('/PublicProfile');
    expect(await screen.findByRole('heading', { name: 'Profile Not Found' })).toBeInTheDocument();
    expect(rpc).not.toHaveBeenCalled();
  });
});

describe('the public profile at origin plus username', () => {
  it('takes the username from /{username}, under the public header', async () => {
    rpc.mockResolvedValue(ok(profile));
    open('/ann');
    expect(await screen.findByRole('heading', { name: 'Ann Lee' })).toBeInTheDocument();
    expect(rpc).toHaveBeenCalledWith('get_public_profile', { p_username: 'ann' });
    expect(screen.getByRole('link', { name: 'Linkboard' })).toHaveAttribute('href', '/');
    const calls = screen.getByRole('navigation', { name: 'Main' });
    expect(within(calls).getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/Login');
    expect(within(calls).getByRole('link', { name: 'Create your free account' })).toHaveAttribute(
      'href',
      '/Login?mode=sign-up',
    );
  });
});

describe('a visitor offline', () => {
  it('sees the copy last seen here with its time, never Profile Not Found', async () => {
    rpc.mockResolvedValue(ok(profile));
    open('/PublicProfile/ann');
    await screen.findByRole('heading', { name: 'Ann Lee' });
    cleanup();
    rpc.mockResolvedValue(noNetwork());
    open('/ann');
    expect(await screen.findByRole('heading', { name: 'Ann Lee' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Dribbble' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(/^You are offline\. This is the copy you saw on /);
    expect(screen.queryByText('Profile Not Found')).toBeNull();
  });

  it("says 'You are offline' for a profile never seen here", async () => {
    rpc.mockRejectedValue(new TypeError('Failed to fetch'));
    open('/PublicProfile/ghost');
    expect(await screen.findByRole('heading', { name: 'You are offline' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(screen.queryByText('Profile Not Found')).toBeNull();
  });
});
