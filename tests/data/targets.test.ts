/**
 * Every mutator's declared targets (tests/data/target-cases.ts): the expected declaration for each
 * mutation of the contract, and a check that applying it changes no row outside what it declares
 * (so the rebase, which re-applies on declared targets only, cannot miss an overwritten change).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { LinkboardDb } from '../../src/data/db.ts';
import { mutationNames } from '../../src/domain/mutation-contract.ts';
import { mutatorOf } from '../../src/data/mutators.ts';
import { syncedTableNames } from '../../src/data/synced-tables.ts';
import { Touched } from '../../src/data/targets.ts';
import { ctx, freshDb } from './helpers.ts';
import { ME } from '../support/builders.ts';
import { cases, dir, event, invitation, link, member, poll, seriesEvents, timePoll } from './target-cases.ts';

const team = ctx({ tier: 'team' });

type Rows = Map<string, Record<string, unknown>>;

async function allRows(db: LinkboardDb): Promise<Rows> {
  const out: Rows = new Map();
  for (const name of syncedTableNames) {
    for (const row of await db.table(name).toArray()) out.set(`${name}#${row.id}`, row);
  }
  return out;
}

let db: LinkboardDb;

beforeEach(async () => {
  db = freshDb();
  await db.user_profiles.put({
    id: ME,
    email: 'me@example.com',
    full_name: 'Me',
    username: 'me',
    bio: '',
    subscription_tier: 'team',
    time_zone: 'UTC',
    created_at: '2026-03-01T00:00:00.000Z',
    updated_at: '2026-03-01T00:00:00.000Z',
  });
  await db.link_directories.put(dir);
  await db.saved_links.put(link);
  await db.directory_members.put(member);
  await db.calendar_events.bulkPut([event, ...seriesEvents]);
  await db.voting_posts.bulkPut([poll, timePoll]);
  await db.event_invitations.put(invitation);
});

describe.each(mutationNames)('%s', (name) => {
  const { args, targets } = cases[name];
  const mutator = mutatorOf(name);

  it('declares the rows its apply reads or writes', () => {
    expect(mutator.targets(args as never, { userId: ME })).toEqual(targets);
  });

  it('changes no row outside its declared targets', async () => {
    const before = await allRows(db);
    await db.transaction('rw', db.tables, () => mutator.apply(db, args as never, team));
    const after = await allRows(db);
    const declared = mutator.targets(args as never, { userId: ME });
    const changed = [...new Set([...before.keys(), ...after.keys()])].filter(
      (key) => JSON.stringify(before.get(key)) !== JSON.stringify(after.get(key)),
    );
    expect(changed.length).toBeGreaterThan(0);
    for (const key of changed) {
      const [table, id] = key.split('#') as [(typeof syncedTableNames)[number], string];
      // A server write of this row (as it was, or as it is now) must reach the mutation.
      const touched = new Touched();
      touched.noteRow(table, before.get(key) ?? after.get(key) ?? { id });
      if (after.get(key)) touched.noteRow(table, after.get(key)!);
      expect(touched.hasAny(declared), `${name} changed ${key}`).toBe(true);
    }
  });
});
