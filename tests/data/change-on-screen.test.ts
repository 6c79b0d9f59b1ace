import { describe, expect, it } from 'vitest';
import { mutate } from '../../src/data/mutate.ts';
import type { PendingWrite } from '../../src/data/pending-writes.ts';
import { overlay, type RowView } from '../../src/data/queries/live-rows.ts';
import { pollsWithPending, readMyVotes, readPolls } from '../../src/data/queries/polls.ts';
import type { LinkRow } from '../../src/data/rows.ts';
import { ctx, freshDb } from './helpers.ts';
import { ME, OTHER, makeDirectory, makeEvent, makeLink, makePoll, uuid } from '../support/builders.ts';

describe('a prediction (the change on screen before its transaction has read anything)', () => {
  const titles = (writes: readonly PendingWrite[]) =>
    writes.map((write) => (write.row?.title as string | undefined) ?? null);

  it('shows a new link in the same task as the call, then the transaction’s own row in its place', async () => {
    const db = freshDb();
    const directory = makeDirectory();
    await db.link_directories.put(directory);
    const id = uuid();
    const done = mutate(db, 'link.create', { id, directory_id: directory.id, url: 'a.test', title: ' A ' }, ctx());
    // No await yet: IndexedDB has not been asked anything for this change.
    const predicted = db.pending.forTable('saved_links', db.pending.currentEpoch());
    expect(predicted).toHaveLength(1);
    // As apply will write it: normalized (https://, trimmed), the owner from the known directory.
    expect(predicted[0]?.row).toMatchObject({ id, url: 'https://a.test', title: 'A', owner_id: ME, created_by: ME });
    await done;
    // One row left, the committed one: the prediction went when the transaction revealed its writes.
    expect(db.pending.forTable('saved_links', 0)).toMatchObject([{ key: id, epoch: 1 }]);
  });

  it('takes a refused change back: a Free owner over the limit sees the link come and go, and the refusal', async () => {
    const db = freshDb();
    const directory = makeDirectory();
    await db.link_directories.put(directory);
    await db.saved_links.bulkPut(Array.from({ length: 30 }, () => makeLink({ directory_id: directory.id })));
    const seen: (string | null)[][] = [];
    db.pending.subscribe(() => seen.push(titles(db.pending.forTable('saved_links', 0))));
    const done = mutate(
      db,
      'link.create',
      { id: uuid(), directory_id: directory.id, url: 'a.test', title: 'A' },
      ctx(),
    );
    expect(titles(db.pending.forTable('saved_links', 0))).toEqual(['A']);
    await expect(done).rejects.toThrow(/Upgrade to Pro/);
    expect(db.pending.forTable('saved_links', 0)).toEqual([]);
    expect(seen).toEqual([['A'], []]);
    expect(await db.saved_links.count()).toBe(30);
  });

  it('foresees nothing it cannot know: another owner’s directory, args of the wrong shape, a Free star', async () => {
    const db = freshDb();
    const theirs = makeDirectory({ owner_id: OTHER });
    const link = makeLink({ directory_id: theirs.id, owner_id: OTHER });
    await db.link_directories.put(theirs);
    await db.saved_links.put(link);
    const shown: number[] = [];
    db.pending.subscribe(() => shown.push(db.pending.forTable('saved_links', 0).length));
    const calls = [
      mutate(db, 'link.create', { id: uuid(), directory_id: theirs.id, url: 'a.test', title: 'A' }, ctx()),
      mutate(db, 'link.create', { id: uuid(), directory_id: uuid(), url: 'a.test', title: 'A' }, ctx({ tier: 'pro' })),
      mutate(db, 'link.update', { id: link.id, title: 42 } as never, ctx()),
      mutate(db, 'link.set_favorite', { id: link.id, value: true }, ctx()),
    ];
    // Nothing shown in the call's own task.
    expect(shown).toEqual([]);
    for (const call of calls) await expect(call).rejects.toThrow();
    expect(shown).toEqual([]);
  });

  it('lays a star and a completed task over the rows the screen holds, and a vote over its poll', async () => {
    const db = freshDb();
    const directory = makeDirectory();
    const link = makeLink({ directory_id: directory.id });
    const task = makeEvent({ is_task: true, is_completed: false });
    const poll = makePoll();
    await db.link_directories.put(directory);
    await db.saved_links.put(link);
    await db.calendar_events.put(task);
    await db.voting_posts.put(poll);
    const polls = await readPolls(db);
    const read = { polls, myVotes: await readMyVotes(db, polls) };
    const since = db.pending.currentEpoch();
    const calls = [
      mutate(db, 'link.set_favorite', { id: link.id, value: true }, ctx({ tier: 'pro' })),
      mutate(db, 'task.set_completed', { id: task.id, value: true }, ctx()),
      mutate(db, 'poll.vote', { id: uuid(), post_id: poll.id, option_index: 1 }, ctx()),
    ];
    const everyLink: RowView<LinkRow> = { belongs: () => true, compare: () => 0 };
    const everyEvent: RowView<typeof task> = { belongs: () => true, compare: () => 0 };
    // In the calls' own task: IndexedDB has answered nothing yet.
    expect(overlay([link], db.pending.forTable('saved_links', since), everyLink)[0]?.is_favorite).toBe(true);
    expect(overlay([task], db.pending.forTable('calendar_events', since), everyEvent)[0]?.is_completed).toBe(true);
    const voted = pollsWithPending(read, (table) => db.pending.forTable(table, since), ME);
    expect(voted.myVotes.get(poll.id)?.option_index).toBe(1);
    expect(voted.polls[0]?.options[1]?.votes).toBe(1);
    // A row the screen does not hold is not made up from a change.
    expect(overlay([], db.pending.forTable('saved_links', since), everyLink)).toEqual([]);
    await Promise.all(calls);
    expect((await db.saved_links.get(link.id))?.is_favorite).toBe(true);
    expect((await db.voting_posts.get(poll.id))?.options[1]?.votes).toBe(1);
  });

  it('shows a whole series and a new event at once, and a Free user’s series not at all (it is refused)', async () => {
    const db = freshDb();
    const occurrences = Array.from({ length: 365 }, (_, day) => {
      const start = new Date(Date.UTC(2026, 2, 16 + day, 7));
      return {
        id: uuid(),
        title: ' Gym ',
        description: '',
        starts_at: start.toISOString(),
        ends_at: new Date(start.getTime() + 3_600_000).toISOString(),
      };
    });
    const series = { series_id: uuid(), rule: 'daily' as const, until: '2027-03-16T23:59:00Z', occurrences };
    const eventId = uuid();
    const calls = [
      mutate(db, 'series.create', series, ctx({ tier: 'pro' })),
      mutate(
        db,
        'event.create',
        { id: eventId, title: 'Dentist', starts_at: '2026-03-20T09:00:00Z', ends_at: null, is_task: false },
        ctx({ tier: 'pro' }),
      ),
    ];
    const shown = db.pending.forTable('calendar_events', db.pending.currentEpoch());
    expect(shown).toHaveLength(366);
    expect(shown[0]?.row).toMatchObject({ title: 'Gym', description: null, series_id: series.series_id, owner_id: ME });
    expect(shown[365]?.row).toMatchObject({ id: eventId, is_task: false, recurrence_rule: 'none' });
    await Promise.all(calls);
    expect(await db.calendar_events.count()).toBe(366);

    const free = freshDb();
    const refused = mutate(free, 'series.create', { ...series, series_id: uuid() }, ctx());
    expect(free.pending.forTable('calendar_events', 0)).toEqual([]);
    await expect(refused).rejects.toThrow(/Pro feature/);
  });
});
