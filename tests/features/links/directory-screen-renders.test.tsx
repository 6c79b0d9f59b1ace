// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
// Dexie's liveQuery only reacts with a global indexedDB (an injected factory never emits).
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Profiler, useEffect, useState } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useCurrentUser } from '../../../src/backend/current-user-store.ts';
import { wake } from '../../../src/data/burst-wakes.ts';
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

/** The probe beside the screen (outside its Profiler): a React state the test sets and then finds in the DOM. */
const fenceMark = { set: (n: number): void => void n, count: 0 };
function FenceMark() {
  const [n, setN] = useState(0);
  useEffect(() => {
    fenceMark.set = setN;
  }, []);
  return <output>{`fence ${n}`}</output>;
}

/** After every zero-delay timer set before it: a place in the timers' queue, not a length of time. */
const afterEarlierTimers = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Resolves once every live query woken so far has answered and React has committed what the answers
 * changed: each step waits for an event that must come after them, whatever the machine's speed.
 * 1. A woken live query starts its read at once, or in a zero-delay timer (Dexie's execInGlobalContext;
 *    a first read, in one set as it subscribed): after the earlier timers, each has begun its read
 *    transactions. The screen's queries begin all theirs as they start (readLinkWindow its two, the
 *    others one); a query whose next transaction began only after the fence's would escape it.
 * 2. IndexedDB starts a read-write transaction only once every transaction begun before it on its
 *    stores has ended, and this one spans them all: every such read has answered.
 * 3. A live query hands its answer to React at once, or in a zero-delay timer: after the earlier
 *    timers, each answer that changed something is a React update.
 * 4. React renders a root's pending updates of one priority in one pass (the live queries' and the
 *    probe's are all of the default one; a store's tell is rendered at once, in a microtask): once
 *    the probe's update is in the DOM, every update before it is committed and the Profiler told.
 */
async function quiet(db: LinkboardDb): Promise<void> {
  await afterEarlierTimers();
  await db.transaction('rw', db.tables, () => db.meta.get('fence'));
  await afterEarlierTimers();
  fenceMark.count += 1;
  fenceMark.set(fenceMark.count);
  await screen.findByText(`fence ${fenceMark.count}`);
}

/**
 * Resolves once the pending writes (pending-writes.ts) have told the screens of every change up to
 * now: a lone save's are told at once, a burst's on a beat (WAKE_MS); a telling tells them all.
 * `told()` is the version the store last told, kept by a listener subscribed before the saves.
 */
function pendingTold(db: LinkboardDb, told: () => number): Promise<void> {
  return new Promise((resolve) => {
    if (told() === db.pending.getVersion()) return resolve();
    const stop = db.pending.subscribe(() => {
      stop();
      resolve();
    });
  });
}

/** Directory d1's screen for a Pro user, its commits counted (a Profiler around it), the fence's probe beside it. */
function renderScreen() {
  const value = userDbValue(db, { id: 'u1', email: 'ada@example.com', tier: 'pro' });
  const commits = { n: 0 };
  render(
    <>
      <MemoryRouter initialEntries={['/Links/ada/dir/d1']}>
        <UserDbContext.Provider value={value}>
          <Profiler id="screen" onRender={() => (commits.n += 1)}>
            <Routes>
              <Route path="/Links/:username/dir/:dirId" element={<LinksPage />} />
            </Routes>
          </Profiler>
        </UserDbContext.Provider>
      </MemoryRouter>
      <FenceMark />
    </>,
  );
  return { value, commits };
}

describe("a directory's screen while links are saved", () => {
  it('renders nothing for saves into another directory (a Pro user: no count on screen changes)', async () => {
    const { value, commits } = renderScreen();
    await screen.findByText('d1 link 5');
    // The screen settled: every live query it started has answered and been rendered.
    await quiet(db);
    const settled = commits.n;
    let told = db.pending.getVersion();
    const stopTracking = db.pending.subscribe(() => (told = db.pending.getVersion()));
    for (let i = 0; i < 3; i += 1) {
      await value.mutate('link.create', {
        id: crypto.randomUUID(),
        directory_id: 'd2',
        url: `https://elsewhere.test/${i}`,
        title: `Elsewhere ${i}`,
      });
    }
    // Every save's live queries woken (a lone save's at its commit; the beat's wake of a burst's,
    // burst-wakes.ts, now rather than within WAKE_MS), its pending writes told, and whatever they
    // changed rendered.
    wake();
    await pendingTold(db, () => told);
    stopTracking();
    await quiet(db);
    expect(commits.n).toBe(settled);
    // A save into this directory is on screen.
    await value.mutate('link.create', {
      id: crypto.randomUUID(),
      directory_id: 'd1',
      url: 'https://here.test/',
      title: 'Here',
    });
    expect(await screen.findByText('Here')).toBeInTheDocument();
    expect(commits.n).toBeGreaterThan(settled);
  });
});

describe("a directory's screen while its search is typed", () => {
  it('renders a key and its matches in one commit, not the key first and the matches after', async () => {
    const { commits } = renderScreen();
    await screen.findByText('d1 link 5');
    const box = screen.getByRole('searchbox', { name: 'Search' });
    // The box has the focus: the directory's links are read once for matching in memory.
    fireEvent.focus(box);
    await quiet(db);
    const settled = commits.n;
    fireEvent.change(box, { target: { value: 'link 3' } });
    expect(screen.getByText('d1 link 3')).toBeInTheDocument();
    expect(screen.queryByText('d1 link 4')).toBeNull();
    expect(commits.n).toBe(settled + 1);
  });
});
