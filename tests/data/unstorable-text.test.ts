/**
 * mutate refuses text the database cannot store (a NUL character, a lone surrogate) in every text
 * argument of every mutation, with words that name the field, and queues nothing: such a
 * mutation would fail its whole push (docs/sync-protocol.md). An entry queued before this check
 * is failed when read back, never sent.
 */
import { describe, expect, it } from 'vitest';
import { mutate } from '../../src/data/mutate.ts';
import { MutationError } from '../../src/data/mutation-error.ts';
import { upgradeOutbox, OUTBOX_VERSION, DAMAGED_ENTRY } from '../../src/data/outbox.ts';
import type { MutationName } from '../../src/domain/mutation-contract.ts';
import { CLEAR, FAULTS, mutationArgs, withEachTextReplaced } from '../support/text-faults.ts';
import { ctx, freshDb, tierCtx } from './helpers.ts';

describe.each(FAULTS)('mutate, given %s', (_fault, bad) => {
  it('refuses it in every text argument of every mutation, and queues nothing', async () => {
    const db = freshDb();
    let checked = 0;
    for (const [name, args] of Object.entries(mutationArgs())) {
      for (const { path, args: badArgs } of withEachTextReplaced(args, bad)) {
        const refusal = await mutate(db, name as MutationName, badArgs as never, tierCtx('team')).then(
          () => null,
          (error: unknown) => error,
        );
        expect({ name, path, refused: refusal instanceof MutationError }).toEqual({ name, path, refused: true });
        expect((refusal as MutationError).code).toBe('invalid');
        expect((refusal as MutationError).message).toMatch(CLEAR);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(60);
    expect(await db.outbox.count()).toBe(0);
  });

  it('fails an entry holding it that was queued before, so it never goes out', async () => {
    const db = freshDb();
    await db.outbox.add({
      id: '20000000-0000-4000-8000-000000000001',
      name: 'link.update',
      args: { id: '20000000-0000-4000-8000-000000000002', title: bad },
      created_at: ctx().now().toISOString(),
      attempts: 0,
      status: 'pending',
      version: OUTBOX_VERSION,
    });
    expect(await upgradeOutbox(db)).toBe(1);
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({ status: 'failed' });
    expect(entry?.last_error).toContain(DAMAGED_ENTRY);
  });
});
