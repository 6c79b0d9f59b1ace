// @vitest-environment jsdom
/**
 * The page table (src/domain/pages.ts) is the one place a screen is declared: these fail when the
 * router, the route rules, the sidebar, the lint zones, the feature folders, the reserved usernames
 * or the visitors' preloads disagree with it.
 */
import '@testing-library/jest-dom/vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Linter } from 'eslint';
import { cleanup, render, screen } from '@testing-library/react';
import { matchRoutes, MemoryRouter, type RouteObject } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../src/app/routes.tsx';
import { Sidebar } from '../../src/app/shell/sidebar.tsx';
import { PAGES, pageList, SLOT_FEATURES, signedInFeatures } from '../../src/domain/pages.ts';
import { redirectFor, type Viewer } from '../../src/domain/route-rules.ts';
import { isProfileSegment } from '../../src/features/profile/public-url.ts';
import { screensFor } from '../../supabase/local/route-preloads.ts';

afterEach(cleanup);

// A plain JS config, loaded as ESLint loads it.
const lintConfig = (
  (await import(pathToFileURL(join(import.meta.dirname, '../../eslint.config.js')).href)) as {
    default: Linter.Config[];
  }
).default;

const featureFolders = readdirSync(join(import.meta.dirname, '../../src/features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/** The paths the router declares, at any depth. */
function routePaths(list: RouteObject[]): string[] {
  return list.flatMap((route) => [...(route.path ? [route.path] : []), ...routePaths(route.children ?? [])]);
}

/** A concrete address for a path pattern: parameters and the splat filled in. */
const addressOf = (path: string, username = 'ada') =>
  path
    .replace(':username', username)
    .replace(/:[a-zA-Z]+/g, 'd1')
    .replace('*', 'd1');

const signedOut: Viewer = { status: 'signed-out' };
const ada: Viewer = { status: 'signed-in', username: 'ada' };

describe('the page table', () => {
  it('declares every feature folder, and names only folders that exist', () => {
    const declared = [...new Set([...pageList.map(([, page]) => page.feature), ...SLOT_FEATURES])].sort();
    expect(declared).toEqual(featureFolders);
  });

  it('walls off every feature folder in the lint zones (eslint.config.js)', () => {
    const block = lintConfig.find((entry) => entry.rules?.['import-x/no-restricted-paths']);
    const [, { zones }] = block!.rules!['import-x/no-restricted-paths'] as [string, { zones: { target: string }[] }];
    for (const feature of featureFolders)
      expect(zones.map((zone) => zone.target)).toContain(`./src/features/${feature}`);
  });

  it('has a route for every path, and every route of a screen is in the table', () => {
    const declared = pageList.flatMap(([, page]) => page.paths);
    // The two fallbacks: a username's public profile and not found.
    expect(routePaths(routes).sort()).toEqual([...declared, '/:username', '*'].sort());
  });

  it('routes each path, in upper and lower case, to its page, not to a fallback', () => {
    for (const [, page] of pageList) {
      for (const path of page.paths) {
        for (const address of [addressOf(path), addressOf(path).toLowerCase()]) {
          const leaf = matchRoutes(routes, address)?.at(-1)?.route.path;
          expect(leaf, address).toBe(path);
        }
      }
    }
  });

  it('guards each page as its kind says', () => {
    for (const [id, page] of pageList) {
      const address = addressOf(page.paths.at(-1)!);
      const stranger = addressOf(page.paths.at(-1)!, 'bob');
      const visitorGoesTo = redirectFor(address, signedOut);
      switch (page.guard) {
        case 'public':
        case 'visitor-allowed':
          expect([id, visitorGoesTo, redirectFor(stranger, ada)]).toEqual([id, null, null]);
          break;
        case 'guest':
          expect([id, visitorGoesTo, redirectFor(address, ada)]).toEqual([id, null, '/Dashboard/ada']);
          break;
        case 'signed-in':
          expect([id, visitorGoesTo, redirectFor(address, ada)]).toEqual([
            id,
            `/Login?next=${encodeURIComponent(address)}`,
            null,
          ]);
          break;
        case 'scoped-by-username':
          expect([id, visitorGoesTo, redirectFor(address, ada), redirectFor(stranger, ada)]).toEqual([
            id,
            '/',
            null,
            '/',
          ]);
      }
    }
  });

  it('completes the bare path of the pages that ask for it, and only theirs', () => {
    for (const [id, page] of pageList) {
      if (page.guard !== 'scoped-by-username') continue;
      const completed = page.appendUsername ? `${page.paths[0]}/ada` : null;
      expect([id, redirectFor(page.paths[0]!.toLowerCase(), ada)]).toEqual([id, completed]);
    }
  });

  it("reserves every page's first segment, so a username never hides a page", () => {
    const segments = pageList.flatMap(([, page]) => page.paths.map((path) => path.split('/')[1]!)).filter(Boolean);
    for (const segment of segments)
      expect([segment, isProfileSegment(segment.toLowerCase())]).toEqual([segment, false]);
  });

  it("preloads a visitor's page for a first visit, and none of the workspace's", () => {
    for (const [id, page] of pageList) {
      const screens = screensFor(addressOf(page.paths[0]!));
      const visitors = page.layout !== 'workspace' || page.guard === 'visitor-allowed';
      expect([id, screens.length > 0]).toEqual([id, visitors]);
    }
  });

  it("keeps the workspace's features out of a visitor's download, and the visitors' in it", () => {
    for (const [id, page] of pageList) {
      expect([id, signedInFeatures.includes(page.feature)]).toEqual([id, page.layout === 'workspace']);
    }
  });

  it("gives each page's screen the table's title", () => {
    // routes.tsx pairs each page with its screen: `id: screen(() => import('../features/x/y.tsx'), ...)`.
    const source = readFileSync(join(import.meta.dirname, '../../src/app/routes.tsx'), 'utf8');
    const files = new Map<string, string[]>();
    for (const [, id, file] of source.matchAll(/^ {2}(\w+): screen\(\(\) => import\('\.\.\/(.+?)'\)/gm)) {
      files.set(file!, [...(files.get(file!) ?? []), id!]);
    }
    expect([...files.values()].flat().sort()).toEqual(pageList.map(([id]) => id).sort());
    for (const [file, ids] of files) {
      const screenSource = readFileSync(join(import.meta.dirname, '../../src', file), 'utf8');
      expect([file, ids.some((id) => screenSource.includes(`PAGES.${id}.title`))]).toEqual([file, true]);
    }
  });

  it('links each sidebar entry to its page', () => {
    const user = { id: 'u1', email: 'ada@example.com', username: 'ada', full_name: null, bio: null };
    render(
      <MemoryRouter>
        <Sidebar user={{ ...user, subscription_tier: 'free', time_zone: 'UTC' }} collapsed onLogout={vi.fn()} />
      </MemoryRouter>,
    );
    const entries = pageList.filter(([, page]) => 'sidebar' in page);
    expect(entries.length).toBeGreaterThan(4);
    for (const [, page] of entries) {
      const link = screen.getByTitle(page.sidebar!.label);
      const leaf = matchRoutes(routes, link.getAttribute('href')!)?.at(-1)?.route.path;
      expect(page.paths).toContain(leaf);
    }
    expect(screen.getByTitle(PAGES.profile.sidebar.label)).toHaveAttribute('href', '/Profile/ada');
  });
});
