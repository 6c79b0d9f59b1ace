/**
 * A mutation's change on screen before IndexedDB has committed it (docs/architecture.md, "The
 * write path"): first its mutator's prediction, shown in the click's own task; then, inside its
 * transaction, the writes its apply issued, all at once in place of the prediction. The rows are
 * held in `db.pending` (pending-writes.ts) until a query that started after the commit has read them.
 */
import { Dexie } from 'dexie';
import { argsProblem, type MutationArgs, type MutationName } from '../domain/mutation-contract.ts';
import type { LinkboardDb } from './db.ts';
import type { MutationContext } from './mutation-context.ts';
import { mutators } from './mutators.ts';
import type { Mutator } from './mutator.ts';
import type { PendingWrites, Predicted, Prediction } from './pending-writes.ts';

/** The mutator's prediction of its writes, shown at once; null without one (or when it throws). */
export function showPrediction<N extends MutationName>(
  db: LinkboardDb,
  name: N,
  args: MutationArgs[N],
  ctx: MutationContext,
): Prediction | null {
  const mutator = mutators[name] as Mutator<N>;
  if (!mutator.predict || argsProblem(name, args) !== null) return null;
  let writes: readonly Predicted[] | null;
  try {
    writes = mutator.predict(args, ctx, { row: (table, key) => db.pending.knownRow(table, key) });
  } catch {
    // A check the args fail: the transaction refuses them with the mutator's own words.
    return null;
  }
  return writes ? db.pending.predict(writes) : null;
}

/**
 * Called first thing inside a mutation's transaction: its writes are held for screens from now
 * on. Answers the reveal, to call once apply has issued every write: they are shown together
 * (a screen never shows half of a change), in place of `prediction` when given.
 */
export function holdWritesOfThisTransaction(pending: PendingWrites): (prediction?: Prediction | null) => void {
  const tx = Dexie.currentTransaction;
  if (!tx) return () => undefined;
  pending.track(tx.idbtrans);
  return (prediction) => pending.reveal(tx.idbtrans, prediction);
}
