import { Dexie } from 'dexie';
import { describe, expect, it, vi } from 'vitest';
import { BURST_MS, mutate } from '../../src/data/mutate.ts';
import type { PendingWrite } from '../../src/data/pending-writes.ts';
import { overlay, type RowView } from '../../src/data/queries/live-rows.ts';
import { pollsWithPending, readMyVotes, readPolls } from '../../src/data/queries/polls.ts';
import type { LinkRow } from '../../src/data/rows.ts';
import {
  ME,
  OTHER,
  ctx,
  freshDb,
  makeDirectory,
  makeEvent,
  makeLink,
  makePoll,
  uuid,
  watchTransactions,
} from './helpers.ts';

const snapshot = (writes: readonly PendingWrite[]) =>
  writes.map((write) => ({ key: write.key, title: write.row?.title ?? null, committed: write.epoch !== null }));

describe('pending writes (a change on screen before IndexedDB commits it)', () => {
  it("hands a mutation's rows to the screen while its transaction is still open, then marks them committed", async () => {
    const db = freshDb();
    const directory = makeDirectory();
    await db.link_directories.put(directory);
    const seen: ReturnType<typeof snapshot>[] = [];
    db.pending.subscribe(() => seen.push(snapshot(db.pending.forTable('saved_links', db.pending.currentEpoch()))));
    const id = uuid();
    let settledBeforeFirstNotice = false;
    const done = mutate(
      db,
      'link.create',
      { id, directory_id: directory.id, url: 'https://a.test', title: 'A' },
      ctx(),
    );
    void done.then(() => (settledBeforeFirstNotice = seen.length === 0));
    await done;

    expect(settledBeforeFirstNotice).toBe(false);
    // First the open transaction's row, then the commit (a query started before it still needs it).
    expect(seen[0]).toEqual([{ key: id, title: 'A', committed: false }]);
    expect(db.pending.forTable('saved_links', 0)).toMatchObject([{ key: id, epoch: 1 }]);
    // A query that started after the commit has read it: nothing to lay over it.
    expect(db.pending.forTable('saved_links', db.pending.currentEpoch())).toEqual([]);
    // The outbox row is not a screen's.
    expect(db.pending.forTable('outbox', 0)).toEqual([]);
  });

  it('a refused mutation shows nothing, and an aborted transaction takes its rows back', async () => {
    const db = freshDb();
    let notices = 0;
    db.pending.subscribe(() => (notices += 1));
    // No such directory: refused by the checks, before anything is written.
    await expect(
      mutate(db, 'link.create', { id: uuid(), directory_id: uuid(), url: 'https://a.test', title: 'A' }, ctx()),
    ).rejects.toThrow();
    expect(notices).toBe(0);

    const link = makeLink();
    await expect(
      db.transaction('rw', db.saved_links, async () => {
        db.pending.track(Dexie.currentTransaction.idbtrans);
        await db.saved_links.put(link);
        // Issued, not yet revealed: nothing shows half of a change.
        expect(db.pending.forTable('saved_links', 0)).toEqual([]);
        db.pending.reveal(Dexie.currentTransaction.idbtrans);
        expect(db.pending.forTable('saved_links', 0)).toHaveLength(1);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    // Dexie rejects as it aborts; the transaction's abort event follows (a few tasks later).
    await vi.waitFor(() => expect(db.pending.forTable('saved_links', 0)).toEqual([]));
    expect(await db.saved_links.get(link.id)).toBeUndefined();
  });

  it('writes of untracked transactions (a pull, a rebase) are not laid over anything', async () => {
    const db = freshDb();
    await db.transaction('rw', db.saved_links, () => db.saved_links.bulkPut([makeLink(), makeLink()]));
    await db.saved_links.put(makeLink());
    expect(db.pending.forTable('saved_links', 0)).toEqual([]);
  });
});

describe('overlay', () => {
  const view: RowView<LinkRow> = {
    belongs: (link) => link.directory_id === 'd1',
    compare: (a, b) => b.created_at.localeCompare(a.created_at),
  };
  const at = (day: number, overrides: Partial<LinkRow> = {}) =>
    makeLink({ directory_id: 'd1', created_at: `2026-03-${String(day).padStart(2, '0')}T00:00:00.000Z`, ...overrides });
  const write = (key: string, row: LinkRow | null): PendingWrite => ({ key, row, epoch: null });

  it('inserts in order, replaces in place, removes, and leaves rows of other lists out', () => {
    const [a, b, c] = [at(10), at(8), at(6)];
    const rows = [a, b, c];
    const added = at(9, { title: 'new' });
    const renamed = { ...b, title: 'renamed' };
    const elsewhere = at(30, { directory_id: 'd2' });
    const out = overlay(
      rows,
      [write(added.id, added), write(b.id, renamed), write(c.id, null), write(elsewhere.id, elsewhere)],
      view,
    );
    expect(out.map((link) => link.title)).toEqual([a.title, 'new', 'renamed']);
    expect(rows).toEqual([a, b, c]);
  });

  it('the latest write of a row wins, and a row moved to another list leaves this one', () => {
    const a = at(10);
    const out = overlay([a], [write(a.id, { ...a, title: 'one' }), write(a.id, { ...a, title: 'two' })], view);
    expect(out.map((link) => link.title)).toEqual(['two']);
    expect(overlay([a], [write(a.id, { ...a, directory_id: 'd2' })], view)).toEqual([]);
  });

  it('with no writes, the rows are returned as they are', () => {
    const rows = [at(1)];
    expect(overlay(rows, [], view)).toBe(rows);
  });
});

describe('a vote before its commit', () => {
  it("shows the poll's new counts and the user's vote while the transaction is open", async () => {
    const db = freshDb();
    const poll = makePoll();
    await db.voting_posts.put(poll);
    const polls = await readPolls(db);
    const read = { polls, myVotes: await readMyVotes(db, polls) };
    let during: ReturnType<typeof pollsWithPending> | undefined;
    db.pending.subscribe(() => {
      during ??= pollsWithPending(read, (table) => db.pending.forTable(table, 0), ME);
    });
    await mutate(db, 'poll.vote', { id: uuid(), post_id: poll.id, option_index: 1 }, ctx());
    // The first notice came with the first write, before the commit; the read itself is unchanged.
    expect(read.myVotes.size).toBe(0);
    const after = pollsWithPending(read, (table) => db.pending.forTable(table, 0), ME);
    expect(after.myVotes.get(poll.id)?.option_index).toBe(1);
    expect(after.polls[0]?.options[1]?.votes).toBe(1);
    // The first notice already held both writes: the vote never shows without its count.
    expect(during!.myVotes.get(poll.id)?.option_index).toBe(1);
    expect(during!.polls[0]?.options[1]?.votes).toBe(1);
  });
});

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

  it('paints a predicted change before its transaction starts, and keeps the queue in the order of the calls', async () => {
    const frames: (() => void)[] = [];
    vi.stubGlobal('requestAnimationFrame', (callback: () => void) => frames.push(callback));
    try {
      const db = freshDb();
      const directory = makeDirectory();
      await db.link_directories.put(directory);
      const seen = watchTransactions(db);
      const occurrences = Array.from({ length: 30 }, (_, day) => ({
        id: uuid(),
        title: 'Gym',
        description: null,
        starts_at: new Date(Date.UTC(2026, 2, 16 + day, 7)).toISOString(),
        ends_at: new Date(Date.UTC(2026, 2, 16 + day, 8)).toISOString(),
      }));
      const series = { series_id: uuid(), rule: 'daily' as const, until: '2026-04-15T23:59:00Z', occurrences };
      const first = mutate(db, 'series.create', series, ctx({ tier: 'pro' }));
      // Called right after: a small change, which would otherwise start its transaction first.
      const linkId = uuid();
      const second = mutate(
        db,
        'link.create',
        { id: linkId, directory_id: directory.id, url: 'a.test', title: 'A' },
        ctx({ tier: 'pro' }),
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
      // Both on screen, nothing written: the series waits for the frame, the link for the series.
      expect(db.pending.forTable('calendar_events', 0)).toHaveLength(30);
      expect(db.pending.forTable('saved_links', 0)).toHaveLength(1);
      expect(seen.filter((tx) => tx.mode === 'readwrite')).toEqual([]);
      expect(frames).toHaveLength(1);
      // Frame after frame: the series' transaction, then the link's.
      const done = Promise.all([first, second]);
      let settled = false;
      void done.then(() => (settled = true));
      while (!settled) {
        frames.shift()?.();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await done;
      const queue = await db.outbox.orderBy('seq').toArray();
      expect(queue.map((row) => row.name)).toEqual(['series.create', 'link.create']);
      expect(await db.calendar_events.count()).toBe(30);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('waits for one paint per burst of mutations, not one per mutation, and again after a pause', async () => {
    let frames = 0;
    vi.stubGlobal('requestAnimationFrame', (callback: () => void) => {
      frames += 1;
      setTimeout(callback, 0);
    });
    try {
      const db = freshDb();
      const directory = makeDirectory();
      await db.link_directories.put(directory);
      // A loop awaiting each call (what a bulk action does): one frame for the lot.
      for (let i = 0; i < 20; i += 1) {
        await mutate(
          db,
          'link.create',
          { id: uuid(), directory_id: directory.id, url: `https://burst.test/${i}`, title: `Burst ${i}` },
          ctx({ tier: 'pro' }),
        );
      }
      expect(await db.saved_links.count()).toBe(20);
      expect(frames).toBe(1);
      // A person's next click comes later: its change is painted first again.
      await new Promise((resolve) => setTimeout(resolve, BURST_MS + 20));
      await mutate(
        db,
        'link.create',
        { id: uuid(), directory_id: directory.id, url: 'https://burst.test/later', title: 'Later' },
        ctx({ tier: 'pro' }),
      );
      expect(frames).toBe(2);
      const queue = await db.outbox.orderBy('seq').toArray();
      expect(queue).toHaveLength(21);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
