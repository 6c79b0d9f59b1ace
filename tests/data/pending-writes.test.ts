import { Dexie } from 'dexie';
import { describe, expect, it, vi } from 'vitest';
import { mutate } from '../../src/data/mutate.ts';
import type { PendingWrite } from '../../src/data/pending-writes.ts';
import { pollsWithPending, readMyVotes, readPolls } from '../../src/data/queries/polls.ts';
import { ctx, freshDb } from './helpers.ts';
import { ME, makeDirectory, makeLink, makePoll, uuid } from '../support/builders.ts';

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

describe('two quick changes of one row', () => {
  it("never shows the first again once the second's prediction is on screen (its transaction's writes take its prediction's place)", async () => {
    const { makeSlotAnswers, makeTimePoll } = await import('../support/builders.ts');
    const { overlay } = await import('../../src/data/queries/live-rows.ts');
    const db = freshDb();
    const poll = makeTimePoll();
    const row = makeSlotAnswers({ post_id: poll.id, answers: { 'slot-1': 'no' }, txid: '1' });
    await db.voting_posts.put(poll);
    await db.slot_answers.put(row);
    const shown: string[] = [];
    db.pending.subscribe(() => {
      const [now] = overlay([row], db.pending.forTable('slot_answers', 0), { belongs: () => true, compare: () => 0 });
      const answer = String(now?.answers['slot-1']);
      if (shown.at(-1) !== answer) shown.push(answer);
    });
    const answer = (value: 'yes' | 'maybe') =>
      mutate(db, 'poll.answer', { id: row.id, post_id: poll.id, slot_id: 'slot-1', answer: value }, ctx());
    // The second click comes while the first still waits for its paint.
    await Promise.all([answer('yes'), answer('maybe')]);
    expect(shown).toEqual(['yes', 'maybe']);
  });
});
