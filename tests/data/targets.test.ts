/**
 * Every mutator's declared targets (issue 11, point 4): the expected declaration for each
 * mutation of the contract, and a check that applying it changes no row outside what it declares
 * (so the rebase, which re-applies on declared targets only, cannot miss an overwritten change).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { LinkboardDb } from '../../src/data/db.ts';
import { type MutationArgs, type MutationName, mutationNames } from '../../src/domain/mutation-contract.ts';
import { mutatorOf } from '../../src/data/mutators.ts';
import { syncedTableNames } from '../../src/data/synced-tables.ts';
import { Touched, groupTarget, rowTarget, type Target } from '../../src/data/targets.ts';
import { ME, ctx, freshDb, makeDirectory, makeEvent, makeLink, makeMember, makePoll, uuid } from './helpers.ts';

const team = ctx({ tier: 'team' });
const dir = makeDirectory({ owner_id: ME });
const link = makeLink({ directory_id: dir.id });
const member = makeMember({ directory_id: dir.id });
const event = makeEvent();
const seriesId = uuid();
const seriesEvents = [makeEvent({ series_id: seriesId }), makeEvent({ series_id: seriesId })];
const poll = makePoll({ directory_id: dir.id });
const occurrence = (id = uuid()) => ({
  id,
  title: 'Yoga',
  description: null,
  starts_at: '2026-03-20T09:00:00.000Z',
  ends_at: '2026-03-20T10:00:00.000Z',
});
const newIds = { directory: uuid(), link: uuid(), member: uuid(), event: uuid(), poll: uuid(), vote: uuid() };
const occurrenceIds = [uuid(), uuid()];

/** Sample args of every mutation, over the fixtures above, and what each must declare. */
const cases: { [N in MutationName]: { args: MutationArgs[N]; targets: Target[] } } = {
  'profile.update': { args: { bio: 'Hi' }, targets: [rowTarget('user_profiles', ME)] },
  'directory.create': {
    args: { id: newIds.directory, name: 'New' },
    targets: [rowTarget('link_directories', newIds.directory)],
  },
  'directory.update': { args: { id: dir.id, name: 'Renamed' }, targets: [rowTarget('link_directories', dir.id)] },
  'directory.delete': {
    args: { id: dir.id },
    targets: [
      rowTarget('link_directories', dir.id),
      groupTarget('saved_links', 'directory_id', dir.id),
      groupTarget('directory_members', 'directory_id', dir.id),
      groupTarget('voting_posts', 'directory_id', dir.id),
    ],
  },
  'link.create': {
    args: { id: newIds.link, directory_id: dir.id, url: 'https://b.test', title: 'B' },
    targets: [rowTarget('saved_links', newIds.link), rowTarget('link_directories', dir.id)],
  },
  'link.update': { args: { id: link.id, title: 'T' }, targets: [rowTarget('saved_links', link.id)] },
  'link.delete': { args: { id: link.id }, targets: [rowTarget('saved_links', link.id)] },
  'link.set_favorite': { args: { id: link.id, value: true }, targets: [rowTarget('saved_links', link.id)] },
  'member.invite': {
    args: { id: newIds.member, directory_id: dir.id, user_email: 'new@example.com', role: 'viewer' },
    targets: [rowTarget('directory_members', newIds.member)],
  },
  'member.set_role': { args: { id: member.id, role: 'editor' }, targets: [rowTarget('directory_members', member.id)] },
  'member.remove': { args: { id: member.id }, targets: [rowTarget('directory_members', member.id)] },
  'event.create': {
    args: { id: newIds.event, title: 'E', starts_at: null, ends_at: null, is_task: true },
    targets: [rowTarget('calendar_events', newIds.event)],
  },
  'event.update': { args: { id: event.id, title: 'E2' }, targets: [rowTarget('calendar_events', event.id)] },
  'event.delete': { args: { id: event.id }, targets: [rowTarget('calendar_events', event.id)] },
  'task.set_completed': { args: { id: event.id, value: true }, targets: [rowTarget('calendar_events', event.id)] },
  'series.create': {
    args: {
      series_id: uuid(),
      rule: 'daily',
      until: '2026-03-21T00:00:00.000Z',
      occurrences: occurrenceIds.map((id) => occurrence(id)),
    },
    targets: occurrenceIds.map((id) => rowTarget('calendar_events', id)),
  },
  'series.replace': {
    args: {
      old_series_id: seriesId,
      series_id: uuid(),
      rule: 'daily',
      until: '2026-03-21T00:00:00.000Z',
      occurrences: occurrenceIds.map((id) => occurrence(id)),
    },
    targets: [
      groupTarget('calendar_events', 'series_id', seriesId),
      ...occurrenceIds.map((id) => rowTarget('calendar_events', id)),
    ],
  },
  'series.delete': { args: { series_id: seriesId }, targets: [groupTarget('calendar_events', 'series_id', seriesId)] },
  'occurrence.detach': {
    args: { id: seriesEvents[0]!.id, title: 'Moved' },
    targets: [rowTarget('calendar_events', seriesEvents[0]!.id)],
  },
  'poll.create': {
    args: { id: newIds.poll, title: 'P', options: ['a', 'b'] },
    targets: [rowTarget('voting_posts', newIds.poll)],
  },
  'poll.vote': {
    args: { id: newIds.vote, post_id: poll.id, option_index: 1 },
    targets: [rowTarget('user_votes', newIds.vote), rowTarget('voting_posts', poll.id)],
  },
};

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
  await db.voting_posts.put(poll);
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
