// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
// Dexie's liveQuery only reacts with a global indexedDB (an injected factory never emits).
import 'fake-indexeddb/auto';
import { render, screen, waitFor, within } from '@testing-library/react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo, type ReactNode } from 'react';
import userEvent from '@testing-library/user-event';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProfileTheme } from '../../src/app/profile-theme.tsx';
import { useCurrentUser } from '../../src/backend/current-user-store.ts';
import { deleteUserDb, openUserDb, type LinkboardDb } from '../../src/data/db.ts';
import { UserDbContext } from '../../src/data/user-db-context.ts';
import { themeChoices } from '../../src/domain/validation.ts';
import { ProfilePage } from '../../src/features/profile/profile-page.tsx';
import {
  THEME_CHOICES,
  THEME_KEY,
  applyThemeChoice,
  followSystemTheme,
  resolveTheme,
  storedThemeChoice,
} from '../../src/ui/theme/theme.ts';
import { mutate as realMutate } from '../../src/data/mutate.ts';
import type { UserDb } from '../../src/data/user-db-context.ts';
import { chooseTheme, unsavedThemeChoice } from '../../src/ui/theme/theme-choice.ts';
import { spyUserDb } from '../support/spy-user-db.ts';
import { makeProfileRow } from '../features/profile/profile-row.ts';

vi.mock('../../src/backend/supabase.ts', () => ({
  supabase: { rpc: vi.fn(), auth: { getSession: vi.fn() }, functions: { invoke: vi.fn() } },
}));

/** A system colour scheme the test can switch, as matchMedia('(prefers-color-scheme: dark)') reports it. */
function stubSystem(dark: boolean) {
  const query = Object.assign(new EventTarget(), { matches: dark, media: '(prefers-color-scheme: dark)' });
  vi.stubGlobal(
    'matchMedia',
    vi.fn(() => query),
  );
  return {
    switchTo(next: boolean) {
      query.matches = next;
      query.dispatchEvent(new Event('change'));
    },
  };
}

const bootScript = readFileSync(join(import.meta.dirname, '../../public/theme-boot.js'), 'utf8');
const shown = () => document.documentElement.getAttribute('data-theme');

beforeEach(() => {
  localStorage.clear();
  document.documentElement.removeAttribute('data-theme');
});
afterEach(() => vi.unstubAllGlobals());

describe('the theme', () => {
  it("offers the synced field's choices", () => {
    expect(THEME_CHOICES).toEqual(themeChoices);
  });

  it('resolves a choice against the system', () => {
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
  });

  // The boot script runs before the first paint and cannot import the module: the two must agree.
  it.each([null, ...themeChoices, 'Dark', 'purple', 'dark\u0000', '\ud800'])(
    'the boot script shows what the app would for a stored %j',
    (stored) => {
      for (const system of [false, true]) {
        stubSystem(system);
        if (stored === null) localStorage.removeItem(THEME_KEY);
        else localStorage.setItem(THEME_KEY, stored);
        document.documentElement.removeAttribute('data-theme');
        new Function(bootScript)();
        expect(shown()).toBe(resolveTheme(storedThemeChoice(), system));
      }
    },
  );

  it('the boot script falls back to the system when storage is blocked', () => {
    stubSystem(true);
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('blocked', 'SecurityError');
    });
    new Function(bootScript)();
    expect(shown()).toBe('dark');
    expect(storedThemeChoice()).toBe('system');
    vi.restoreAllMocks();
  });

  it('applies and remembers a choice, and follows the system only while the choice is system', () => {
    const system = stubSystem(false);
    const stop = followSystemTheme();
    applyThemeChoice('system');
    expect(shown()).toBe('light');
    system.switchTo(true);
    expect(shown()).toBe('dark');
    applyThemeChoice('light');
    expect(localStorage.getItem(THEME_KEY)).toBe('light');
    system.switchTo(true);
    expect(shown()).toBe('light');
    stop();
  });
});

describe("the profile's theme", () => {
  let db: LinkboardDb;
  beforeEach(async () => {
    stubSystem(false);
    db = openUserDb('u1');
    const row = makeProfileRow({ theme: 'dark' });
    await db.user_profiles.put(row);
    useCurrentUser.setState({ status: 'signed-in', user: row });
  });
  afterEach(async () => {
    db.close();
    await deleteUserDb('u1');
  });

  it('shows the synced choice on this device, and follows a change that arrives from another device', async () => {
    const mutate = vi.fn();
    render(
      <UserDbContext.Provider value={spyUserDb(mutate, db)}>
        <ProfileTheme userId="u1" />
      </UserDbContext.Provider>,
    );
    await waitFor(() => expect(shown()).toBe('dark'));
    expect(localStorage.getItem(THEME_KEY)).toBe('dark');
    // What a pull writes when the user chose Light elsewhere.
    await db.user_profiles.update('u1', { theme: 'light' });
    await waitFor(() => expect(shown()).toBe('light'));
    expect(localStorage.getItem(THEME_KEY)).toBe('light');
  });

  it('Profile offers Light, Dark and System, applies a choice at once and queues profile.update', async () => {
    const user = userEvent.setup();
    const mutate = vi.fn().mockResolvedValue({ id: 'm1' });
    render(
      <MemoryRouter>
        <UserDbContext.Provider value={spyUserDb(mutate, db)}>
          <ProfilePage />
        </UserDbContext.Provider>
      </MemoryRouter>,
    );
    const group = within(screen.getByRole('region', { name: 'Appearance' })).getByRole('radiogroup', {
      name: 'Theme',
    });
    await waitFor(() => expect(within(group).getByRole('radio', { name: 'Dark' })).toBeChecked());
    await user.click(within(group).getByRole('radio', { name: 'Light' }));
    expect(shown()).toBe('light');
    expect(mutate).toHaveBeenCalledWith('profile.update', { theme: 'light' });
  });

  /** The app's own mutate on the test's database (the local apply and the outbox row, one transaction). */
  function appUserDb(): UserDb {
    const context = {
      userId: 'u1',
      email: 'u1@example.com',
      tier: 'pro' as const,
      now: () => new Date(),
      timeZone: 'UTC',
    };
    return { db, mutate: ((name, args) => realMutate(db, name, args, context)) as UserDb['mutate'] };
  }

  it('a choice whose save a closed page cut off is saved at the next start, and shown from its first frame', async () => {
    // The last session: Light chosen on Profile, the page closed before the profile's write
    // committed. What is left: this device's localStorage (written with the click) and the
    // profile's earlier Dark.
    const user = userEvent.setup();
    const lost = vi.fn(() => new Promise<never>(() => undefined));
    const before = render(
      <MemoryRouter>
        <UserDbContext.Provider value={spyUserDb(lost, db)}>
          <ProfilePage />
        </UserDbContext.Provider>
      </MemoryRouter>,
    );
    const group = within(screen.getByRole('region', { name: 'Appearance' })).getByRole('radiogroup', {
      name: 'Theme',
    });
    await waitFor(() => expect(within(group).getByRole('radio', { name: 'Dark' })).toBeChecked());
    await user.click(within(group).getByRole('radio', { name: 'Light' }));
    expect(lost).toHaveBeenCalledTimes(1);
    before.unmount();
    expect(unsavedThemeChoice('u1')).toBe('light');
    expect(unsavedThemeChoice('someone else')).toBeNull();

    // The next start: theme-boot.js shows the device's choice, and the profile's Dark never replaces it.
    document.documentElement.removeAttribute('data-theme');
    new Function(bootScript)();
    expect(shown()).toBe('light');
    const seen: (string | null)[] = [];
    const watch = new MutationObserver(() => seen.push(shown()));
    watch.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    render(
      <UserDbContext.Provider value={appUserDb()}>
        <ProfileTheme userId="u1" />
      </UserDbContext.Provider>,
    );
    await waitFor(async () => expect((await db.user_profiles.get('u1'))?.theme).toBe('light'));
    await waitFor(() => expect(unsavedThemeChoice('u1')).toBeNull());
    const queued = await db.outbox.toArray();
    expect(queued.map((row) => [row.name, row.args])).toEqual([['profile.update', { theme: 'light' }]]);
    // A pull from another device's later choice is shown as before.
    await db.user_profiles.update('u1', { theme: 'dark' });
    await waitFor(() => expect(shown()).toBe('dark'));
    watch.disconnect();
    expect(seen.slice(0, -1).every((theme) => theme === 'light')).toBe(true);
    expect(seen.at(-1)).toBe('dark');
  });

  it('a choice left unsaved is saved once at the next start, though the mutate changes with every change of the profile', async () => {
    // The page closed before the save committed: Light is left unsaved on this device.
    void chooseTheme('u1', 'light', () => new Promise<never>(() => undefined));
    // The next start's save waits for the write path (the mutators' code loading) until `loaded`.
    let loaded!: () => void;
    const writePath = new Promise<void>((resolve) => (loaded = resolve));
    const calls = vi.fn();
    const mutates = new Set<UserDb['mutate']>();
    /** As the signed-in area gives it: a mutate made again whenever the profile (the user it acts for) changes. */
    function FollowingProfile({ children }: { children: ReactNode }) {
      const profile = useLiveQuery(() => db.user_profiles.get('u1'));
      const value = useMemo<UserDb | null>(() => {
        if (profile === undefined) return null;
        const app = appUserDb();
        const mutate = async (...args: Parameters<UserDb['mutate']>) => {
          calls(...args);
          await writePath;
          return app.mutate(...args);
        };
        return { db, mutate: mutate as UserDb['mutate'] };
      }, [profile]);
      if (value === null) return null;
      mutates.add(value.mutate);
      return <UserDbContext.Provider value={value}>{children}</UserDbContext.Provider>;
    }
    render(
      <FollowingProfile>
        <ProfileTheme userId="u1" />
      </FollowingProfile>,
    );
    await waitFor(() => expect(calls).toHaveBeenCalled());
    // A pull lands meanwhile: the screen gets a new mutate while the save is still on its way.
    const seen = mutates.size;
    await db.user_profiles.update('u1', { bio: 'Pulled' });
    await waitFor(() => expect(mutates.size).toBeGreaterThan(seen));
    loaded();
    await waitFor(async () => expect((await db.user_profiles.get('u1'))?.theme).toBe('light'));
    await waitFor(() => expect(unsavedThemeChoice('u1')).toBeNull());
    // And later pulls, each a new mutate again.
    await db.user_profiles.update('u1', { bio: 'Pulled again' });
    await waitFor(() => expect(mutates.size).toBeGreaterThan(seen + 2));
    const queued = await db.outbox.toArray();
    expect(queued.map((row) => [row.name, row.args])).toEqual([['profile.update', { theme: 'light' }]]);
    expect(calls).toHaveBeenCalledTimes(1);
    expect(shown()).toBe('light');
  });

  it('a choice saved with the click leaves nothing unsaved behind', async () => {
    const user = userEvent.setup();
    render(
      <MemoryRouter>
        <UserDbContext.Provider value={appUserDb()}>
          <ProfilePage />
        </UserDbContext.Provider>
      </MemoryRouter>,
    );
    const group = within(screen.getByRole('region', { name: 'Appearance' })).getByRole('radiogroup', {
      name: 'Theme',
    });
    await waitFor(() => expect(within(group).getByRole('radio', { name: 'Dark' })).toBeChecked());
    await user.click(within(group).getByRole('radio', { name: 'System' }));
    await waitFor(async () => expect((await db.user_profiles.get('u1'))?.theme).toBe('system'));
    await waitFor(() => expect(unsavedThemeChoice('u1')).toBeNull());
  });
});
