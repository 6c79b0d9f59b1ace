/** The UserDb the app gives a screen (src/data/user-db-context.ts), for component tests. */
import type { vi } from 'vitest';
import type { LinkboardDb } from '../../src/data/db.ts';
import type { UserDb } from '../../src/data/user-db-context.ts';

/**
 * The database of a dialog test: a dialog writes only through mutate (what it shows comes as
 * props), so any read of it fails the test by name. A Proxy over nothing is not a LinkboardDb to
 * the compiler, hence the cast.
 */
const noDb = new Proxy(
  {},
  {
    get(_target, key) {
      throw new Error(`This test gives the screen no database, yet it read db.${String(key)}`);
    },
  },
) as LinkboardDb;

/**
 * `mutate` is the test's spy (vi.fn(), answering what the test needs), `db` the test's database,
 * none for a dialog. A bare spy is not the generic mutate to the compiler, hence the cast.
 */
export function spyUserDb(mutate: ReturnType<typeof vi.fn>, db: LinkboardDb = noDb): UserDb {
  return { db, mutate: mutate as UserDb['mutate'] };
}
