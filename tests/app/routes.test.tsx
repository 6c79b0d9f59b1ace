// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import 'fake-indexeddb/auto';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, useRoutes, type RouteObject } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const rpc = vi.hoisted(() => vi.fn());
vi.mock('../../src/backend/anon-rpc.ts', () => ({ anonRpc: rpc }));

import { routes } from '../../src/app/routes.tsx';
import { useCurrentUser } from '../../src/backend/current-user-store.ts';
import { publicProfilePath, RESERVED_SEGMENTS } from '../../src/features/profile/public-url.ts';

const profile = {
  profile: { username: 'ann', full_name: 'Ann Lee', bio: null, subscription_tier: 'free' },
  directories: [],
};

beforeEach(() => {
  rpc.mockReset();
  rpc.mockResolvedValue({ data: profile, error: null, status: 200 });
  useCurrentUser.setState({ status: 'signed-out', user: null });
});
afterEach(cleanup);

function App() {
  return useRoutes(routes);
}

function open(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <App />
    </MemoryRouter>,
  );
}

function firstSegments(list: RouteObject[]): string[] {
  return list.flatMap((route) => [
    ...(route.path?.split('/').filter(Boolean).slice(0, 1) ?? []),
    ...firstSegments(route.children ?? []),
  ]);
}

describe('the public profile at origin plus username (docs/product.md, Profile)', () => {
  it('opens /{username} as the public profile, with the public header', async () => {
    open('/ann');
    expect(await screen.findByRole('heading', { name: 'Ann Lee' })).toBeInTheDocument();
    expect(rpc).toHaveBeenCalledWith('get_public_profile', { p_username: 'ann' });
    expect(screen.getByRole('link', { name: 'Linkboard' })).toHaveAttribute('href', '/');
  });

  it('keeps the app’s own single-segment pages', async () => {
    open('/Features');
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(rpc).not.toHaveBeenCalled();
  });

  it('says not found for a segment that cannot be a username', async () => {
    open('/no.such.page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(rpc).not.toHaveBeenCalled();
  });

  it('reserves every first segment of the routes, so a username never hides a page', () => {
    const segments = firstSegments(routes).filter((segment) => !segment.startsWith(':') && segment !== '*');
    expect(segments.length).toBeGreaterThan(10);
    for (const segment of segments) expect(RESERVED_SEGMENTS).toContain(segment.toLowerCase());
    expect(publicProfilePath('ada')).toBe('/ada');
    expect(publicProfilePath('voting')).toBe('/PublicProfile/voting');
  });
});
