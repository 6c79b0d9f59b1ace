/**
 * Property test of the whole sync path: three devices (two of one user, one of
 * a member of that user's shared directory) make random mutations through `mutate`, go offline,
 * lose answers after the server committed, and restart; then all go online and sync until
 * quiescent. Every device must then hold exactly what the server shows its user, and every
 * mutation must have taken effect exactly once.
 *
 * This file runs the histories on PGlite; property-postgres.test.ts runs the same on PostgreSQL.
 * SYNC_PROPERTY_RUNS (default 25) runs, seeds SYNC_PROPERTY_SEED, SYNC_PROPERTY_SEED + 1, ...
 * A failure names its seed: rerun with SYNC_PROPERTY_SEED=<seed> SYNC_PROPERTY_RUNS=1.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startSyncStack, type SyncStack } from '../support/sync-harness.ts';
import { BASE_SEED, property, RUNS } from './property-helpers.ts';

describe('sync property (pglite)', () => {
  let stack: SyncStack;
  beforeAll(async () => {
    stack = await startSyncStack({ kind: 'pglite' });
  });
  afterAll(async () => {
    await stack.close();
  });

  it(
    `${RUNS} random histories converge, exactly once`,
    async () => {
      for (let runIndex = 0; runIndex < RUNS; runIndex += 1) await property(stack, BASE_SEED + runIndex);
    },
    120_000 + RUNS * 15_000,
  );
});
