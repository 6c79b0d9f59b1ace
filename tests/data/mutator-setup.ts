/**
 * The preamble of the mutators' tests (mutators*.test.ts): a new empty database of ME before each
 * test (`beforeEach(freshMutatorDb)`), the Pro context, and the check that a call is refused and
 * writes nothing. `db` is a live binding.
 */
import type { LinkboardDb } from '../../src/data/db.ts';
import { ctx, expectRefusedIn, freshDb } from './helpers.ts';

export let db: LinkboardDb;

/** Each test's start (a `beforeEach`): a new empty database. */
export function freshMutatorDb(): void {
  db = freshDb();
}

export const pro = ctx({ tier: 'pro' });

/** The call is refused with `code` (and `message`) and writes nothing. */
export const expectRefused = (run: () => Promise<unknown>, code: string, message?: string) =>
  expectRefusedIn(db, run, code, message);
