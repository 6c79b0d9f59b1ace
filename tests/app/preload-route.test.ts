// @vitest-environment jsdom
import { afterEach, expect, it, vi } from 'vitest';

const loaded = vi.hoisted(() => [] as string[]);
vi.mock('../../src/app/signed-in-area.tsx', () => {
  loaded.push('signed-in area');
  return { SignedInArea: () => null };
});
vi.mock('../../src/features/links/links-page.tsx', () => {
  loaded.push('links page');
  return { LinksPage: () => null };
});
vi.mock('../../src/features/public/shared-directory-page.tsx', () => {
  loaded.push('shared directory');
  return { SharedDirectoryPage: () => null };
});
vi.mock('../../src/features/calendar/calendar-page.tsx', () => {
  loaded.push('calendar page');
  return { CalendarPage: () => null };
});

const { preloadRoute } = await import('../../src/app/routes.tsx');

afterEach(() => localStorage.clear());

it("loads a visitor's page without the signed-in area, and a remembered user's with it", async () => {
  await preloadRoute('/Links/alice/dir/d1');
  expect(loaded).toEqual(['shared directory']);
  localStorage.setItem('lb_username', 'alice');
  await preloadRoute('/Calendar/alice');
  expect(loaded).toEqual(['shared directory', 'signed-in area', 'calendar page']);
  await preloadRoute('/Links/alice/dir/d1');
  expect(loaded).toEqual(['shared directory', 'signed-in area', 'calendar page', 'links page']);
});
