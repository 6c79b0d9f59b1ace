/**
 * The sync property test (property.test.ts) on PostgreSQL, when DATABASE_URL is set: the same
 * seeded histories, in a file of its own so that it runs beside the PGlite one, on another worker.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { dbKinds } from '../support/db.ts';
import { startSyncStack, type SyncStack } from '../support/sync-harness.ts';
import { BASE_SEED, property, RUNS } from './property-helpers.ts';

describe.skipIf(!dbKinds.includes('postgres'))('sync property (postgres)', () => {
  let stack: SyncStack;
  beforeAll(async () => {
    stack = await startSyncStack({ kind: 'postgres' });
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
