import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { syncedTableNames, syncedTables, type SyncedTableName } from '../../src/data/synced-tables.ts';
import {
  makeDirectory,
  makeEvent,
  makeInvitation,
  makeLink,
  makeMember,
  makePoll,
  makeProfile,
  makeSlotAnswers,
  makeVote,
} from '../support/builders.ts';

/** One builder per synced table: a table added to the registry fails here until it has one. */
const builders: Record<SyncedTableName, () => Record<string, unknown>> = {
  user_profiles: makeProfile,
  link_directories: makeDirectory,
  saved_links: makeLink,
  directory_members: makeMember,
  calendar_events: makeEvent,
  voting_posts: makePoll,
  user_votes: makeVote,
  slot_answers: makeSlotAnswers,
  event_invitations: makeInvitation,
};

/** Fields a stored row may lack (tests/support/builders.ts says why each one). */
const leftOut = new Set(['deleted_at', 'txid', 'local_votes', 'local_base']);

describe.each(syncedTableNames)('the %s builder', (table) => {
  it("builds a row the table's schema accepts", () => {
    const result = v.safeParse(syncedTables[table].schema, builders[table]());
    expect(result.issues?.map((issue) => `${v.getDotPath(issue)}: ${issue.message}`) ?? []).toEqual([]);
  });

  it('gives every declared field a value', () => {
    const declared = Object.keys(syncedTables[table].fields).filter((field) => !leftOut.has(field));
    expect(Object.keys(builders[table]()).sort()).toEqual(declared.sort());
  });
});
