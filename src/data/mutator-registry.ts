/**
 * The mutators as the sync engine reaches them (docs/architecture.md, "The write path"). They are
 * not part of the first screen: they load with the first change (the `mutate` chunk), or when a
 * pulled page or a push answer must re-apply queued changes over server rows (rebase). A rebase
 * runs inside an IndexedDB transaction, where no chunk can be awaited, so it asks for them
 * synchronously: not yet loaded, it throws MutatorsNotLoaded, and `withMutators` loads them and
 * runs the transaction again (the first one, aborted, wrote nothing). The app names how they load
 * (`setMutatorsLoader`, a chunk of its own); the service worker imports them with its code, because a
 * worker script cannot load a chunk.
 */
import type { MutationName } from '../domain/mutation-contract.ts';
import type { Mutator, MutatorRegistry } from './mutator.ts';

let loaded: MutatorRegistry | null = null;
let loader: (() => Promise<unknown>) | null = null;

export class MutatorsNotLoaded extends Error {
  constructor() {
    super('The mutators are not loaded yet.');
    this.name = 'MutatorsNotLoaded';
  }
}

/** Called once by mutators.ts as it loads. */
export function registerMutators(registry: MutatorRegistry): void {
  loaded = registry;
}

/** The mutator of `name`, widened for an untyped outbox row; throws MutatorsNotLoaded before they load. */
export function loadedMutatorOf(name: MutationName): Mutator<MutationName> {
  if (!loaded) throw new MutatorsNotLoaded();
  return loaded[name] as unknown as Mutator<MutationName>;
}

/** How the mutators load where they are not part of the code already (the app: a lazy chunk). */
export function setMutatorsLoader(load: () => Promise<unknown>): void {
  loader = load;
}

export async function loadMutators(): Promise<void> {
  if (loaded) return;
  if (!loader) throw new Error('The mutators are not part of this code, and nothing says how to load them.');
  await loader();
  if (!loaded) throw new Error('The mutators did not register as they loaded.');
}

/** Runs `run`; if it needed the mutators before they loaded, loads them and runs it once more. */
export async function withMutators<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof MutatorsNotLoaded)) throw error;
    await loadMutators();
    return run();
  }
}
