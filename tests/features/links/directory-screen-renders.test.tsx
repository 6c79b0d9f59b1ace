// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
// Dexie's liveQuery only reacts with a global indexedDB (an injected factory never emits).
import 'fake-indexeddb/auto';
import { cleanup, render, screen } from '@testing-library/react';
import { Profiler } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useCurrentUser } from '../../../src/backend/current-user-store.ts';
import { deleteUserDb, openUserDb, type LinkboardDb } from '../../../src/data/db.ts';
import { UserDbContext } from '../../../src/data/user-db-context.ts';
import { LinksPage } from '../../../src/features/links/links-page.tsx';
import { makeDirectory, makeLink } from '../../support/builders.ts';
import { userDbValue } from './user-db-value.ts';

const stamp = { created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' };
let db: LinkboardDb;

beforeEach(async () => {
  db = openUserDb('u1');
  useCurrentUser.setState({
    status: 'signed-in',
    user: { id: 'u1', email: 'ada@example.com', username: 'ada', subscription_tier: 'pro' } as never,
  });
  await db.link_directories.bulkPut([
    makeDirectory({ id: 'd1', name: 'Work', owner_id: 'u1', ...stamp }),
    makeDirectory({ id: 'd2', name: 'Home', owner_id: 'u1', ...stamp }),
  ]);
  await db.saved_links.bulkPut(
    ['d1', 'd2'].flatMap((directoryId) =>
      Array.from({ length: 6 }, (_, i) =>
        makeLink({ directory_id: directoryId, owner_id: 'u1', title: `${directoryId} link ${i}`, ...stamp }),
      ),
    ),
  );
});

afterEach(async () => {
  cleanup();
  db.close();
  await deleteUserDb('u1');
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a directory's screen while links are saved", () => {
  it('renders nothing for saves into another directory (a Pro user: no count on screen changes)', async () => {
    const value = userDbValue(db, { id: 'u1', email: 'ada@example.com', tier: 'pro' });
    let commits = 0;
    render(
      <MemoryRouter initialEntries={['/Links/ada/dir/d1']}>
        <UserDbContext.Provider value={value}>
          <Profiler id="screen" onRender={() => (commits += 1)}>
            <Routes>
              <Route path="/Links/:username/dir/:dirId" element={<LinksPage />} />
            </Routes>
          </Profiler>
        </UserDbContext.Provider>
      </MemoryRouter>,
    );
    await screen.findByText('d1 link 5');
    // The screen settled (its window's live query followed after the first paint).
    await pause(300);
    const settled = commits;
    for (let i = 0; i < 3; i += 1) {
      await value.mutate('link.create', {
        id: crypto.randomUUID(),
        directory_id: 'd2',
        url: `https://elsewhere.test/${i}`,
        title: `Elsewhere ${i}`,
      });
    }
    // Every save told and its live queries woken (at once for a lone save; a burst's within WAKE_MS).
    await pause(300);
    expect(commits).toBe(settled);
    // A save into this directory is on screen.
    await value.mutate('link.create', {
      id: crypto.randomUUID(),
      directory_id: 'd1',
      url: 'https://here.test/',
      title: 'Here',
    });
    expect(await screen.findByText('Here')).toBeInTheDocument();
    expect(commits).toBeGreaterThan(settled);
  });
});
