/**
 * The mutators load with the first change, not with the first screen (docs/architecture.md, The write
 * path): a rebase that needs them before they load throws MutatorsNotLoaded inside its transaction,
 * and withMutators loads them and runs the transaction again.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

type Registry = typeof import('../../src/data/mutator-registry.ts');

describe('the mutator registry', () => {
  let registry: Registry;
  beforeEach(async () => {
    vi.resetModules();
    registry = await import('../../src/data/mutator-registry.ts');
    registry.setMutatorsLoader(() => import('../../src/data/mutators.ts'));
  });

  it('answers no mutator before the mutators load', () => {
    expect(() => registry.loadedMutatorOf('link.create')).toThrow(registry.MutatorsNotLoaded);
  });

  it('says so when nothing tells it how to load them', async () => {
    vi.resetModules();
    const bare = await import('../../src/data/mutator-registry.ts');
    await expect(bare.loadMutators()).rejects.toThrow('nothing says how to load them');
  });

  it('withMutators loads them and runs again what needed them', async () => {
    const run = vi.fn(async () => registry.loadedMutatorOf('link.create').tables);
    await expect(registry.withMutators(run)).resolves.toContain('saved_links');
    expect(run).toHaveBeenCalledTimes(2);
    // Loaded now: the next run needs no second try.
    run.mockClear();
    await registry.withMutators(run);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('withMutators passes any other failure on, without a second run', async () => {
    const run = vi.fn(async () => {
      throw new Error('quota');
    });
    await expect(registry.withMutators(run)).rejects.toThrow('quota');
    expect(run).toHaveBeenCalledTimes(1);
  });
});
