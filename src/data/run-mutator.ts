/**
 * Runs mutators in their read-write transaction: each checked and applied, and queued as an
 * outbox row in the same transaction, so a change is written and queued together or not at all
 * (docs/architecture.md, "The write path").
 */
import { argsProblem, type MutationArgs, type MutationName } from '../domain/mutation-contract.ts';
import { findUnstorableText, unstorableTextMessage } from '../domain/storable-text.ts';
import { holdWakeOfThisTransaction } from './burst-wakes.ts';
import { holdWritesOfThisTransaction } from './change-on-screen.ts';
import type { LinkboardDb } from './db.ts';
import type { MutationContext } from './mutation-context.ts';
import { MutationError, refuse } from './mutation-error.ts';
import { mutators } from './mutators.ts';
import type { Mutator } from './mutator.ts';
import { OUTBOX_VERSION } from './outbox.ts';
import { storageFullOr } from './storage-full.ts';
import type { Prediction } from './pending-writes.ts';
import type { OutboxRow } from './rows.ts';

/** One mutation of a batch (mutateMany). */
export type MutationStep = { [N in MutationName]: { name: N; args: MutationArgs[N] } }[MutationName];

export interface MutateManyResult {
  /** The queued outbox rows, in the steps' order. */
  queued: OutboxRow[];
  /** The refused steps (with skipRefused), by their index in `steps`. */
  refused: { index: number; error: MutationError }[];
}

/**
 * Checks `args` with the mutator's own rules first (a refusal keeps the wording of docs/product.md), then
 * their shape. Runs inside the caller's transaction; answers the args as the mutator normalized them.
 */
async function check<N extends MutationName>(
  db: LinkboardDb,
  name: N,
  args: MutationArgs[N],
  ctx: MutationContext,
): Promise<MutationArgs[N]> {
  const mutator = mutators[name] as Mutator<N>;
  // Text the database cannot store would fail the whole push: refused first, naming the field.
  const unstorable = findUnstorableText(args);
  if (unstorable !== null) refuse('invalid', unstorableTextMessage(unstorable.path));
  // A caller outside TypeScript's reach (a stale form state, a cast) is refused, never queued.
  const problem = argsProblem(name, args);
  let normalized: MutationArgs[N];
  try {
    normalized = await mutator.validate(db, args, ctx);
  } catch (error) {
    if (problem !== null && !(error instanceof MutationError)) refuse('invalid', problem);
    throw error;
  }
  // Whatever the mutator's checks let through must still have the shape of the args.
  const after = argsProblem(name, normalized);
  if (after !== null) refuse('invalid', after);
  return normalized;
}

/** `check`, then the change applied. Runs inside the caller's transaction. */
async function checkAndApply<N extends MutationName>(
  db: LinkboardDb,
  name: N,
  args: MutationArgs[N],
  ctx: MutationContext,
): Promise<MutationArgs[N]> {
  const normalized = await check(db, name, args, ctx);
  await (mutators[name] as Mutator<N>).apply(db, normalized, ctx);
  return normalized;
}

function outboxEntry(name: MutationName, args: unknown, ctx: MutationContext, id?: string): OutboxRow {
  return {
    id: id ?? crypto.randomUUID(),
    name,
    args: args as Record<string, unknown>,
    created_at: ctx.now().toISOString(),
    attempts: 0,
    status: 'pending',
    version: OUTBOX_VERSION,
  };
}

type Many = (tx: LinkboardDb, list: unknown[], ctx: MutationContext) => Promise<unknown[]>;

/**
 * The steps from `start` on that can go to their mutator's `many` together: consecutive, of the
 * same mutation, each of the args' shape (one that is not goes alone, so its refusal keeps the
 * mutator's wording). One step when the mutator has no `many`.
 */
function batchRun(steps: readonly MutationStep[], start: number): readonly MutationStep[] {
  const first = steps[start]!;
  if (!mutators[first.name].many) return [first];
  let end = start;
  while (end < steps.length && steps[end]!.name === first.name && argsProblem(first.name, steps[end]!.args) === null)
    end += 1;
  return end === start ? [first] : steps.slice(start, end);
}

/** The tables of every mutator in `names`, with the outbox: one transaction's scope. */
function scopeOf(db: LinkboardDb, names: Iterable<MutationName>) {
  const tables = new Set<string>();
  for (const name of names) for (const table of mutators[name].tables) tables.add(table);
  // counts: a mutator may read a kept count (a plan's limit), kept in the same transaction.
  return [...[...tables].map((table) => db.table(table)), db.outbox, db.counts];
}

/** How `runMutator` queues a mutation. */
export interface RunOptions {
  /** The outbox row's id (a fresh uuid by default). */
  id?: string | undefined;
  /** A save of a burst (after-paint.ts): the live queries it changes wake with the burst's others (burst-wakes.ts). */
  burst?: boolean;
}

/**
 * One mutation in ONE read-write transaction: checked, applied (its writes shown in place of
 * `prediction` once all are issued) and queued. Throws a MutationError (nothing written) when refused.
 */
export function runMutator<N extends MutationName>(
  db: LinkboardDb,
  name: N,
  args: MutationArgs[N],
  ctx: MutationContext,
  prediction: Prediction | null,
  options: RunOptions = {},
): Promise<OutboxRow> {
  const run = db.transaction('rw', scopeOf(db, [name]), async () => {
    // What apply writes is on screen before the commit.
    const reveal = holdWritesOfThisTransaction(db.pending);
    const normalized = await check(db, name, args, ctx);
    const queued = outboxEntry(name, normalized, ctx, options.id);
    // Queued as the change is applied, not after: IndexedDB runs the requests in the order issued,
    // each answer a round trip the next need not wait for (docs/scale.md, "Queue 1,000 writes"). A
    // refusal in apply aborts the transaction, the outbox entry with it.
    const [seq] = await Promise.all([db.outbox.add(queued), (mutators[name] as Mutator<N>).apply(db, normalized, ctx)]);
    queued.seq = seq;
    // Every row of the change at once, in place of the prediction: a screen never shows half of it.
    reveal(prediction);
    // Every write is issued: the screens learn of them with the burst's others, after the commit.
    if (options.burst) holdWakeOfThisTransaction();
    return queued;
  });
  // No space for it (docs/faults.md, Storage full): the transaction aborted whole; the user is told.
  return run.catch((error: unknown) => Promise.reject(storageFullOr(error)));
}

/**
 * `steps` in order in ONE read-write transaction, each checked and applied as `runMutator` does
 * (a step sees the ones before it, so plan limits count them), and queued with one bulk write.
 * A MutationError aborts them all unless `skipRefused`, when the step is reported and skipped.
 */
export function runMutators(
  db: LinkboardDb,
  steps: readonly MutationStep[],
  ctx: MutationContext,
  skipRefused: boolean,
): Promise<MutateManyResult> {
  const run = db.transaction('rw', scopeOf(db, new Set(steps.map((step) => step.name))), async () => {
    const reveal = holdWritesOfThisTransaction(db.pending);
    const queued: OutboxRow[] = [];
    const refused: MutateManyResult['refused'] = [];
    const refusal = (index: number, error: unknown) => {
      if (!(error instanceof MutationError) || !skipRefused) throw error;
      refused.push({ index, error });
    };
    for (let index = 0; index < steps.length;) {
      const run = batchRun(steps, index);
      if (run.length > 1) {
        // Consecutive steps of a mutator that takes many at once (link.create in an import).
        const name = run[0]!.name;
        const answers = await (mutators[name].many as Many)(
          db,
          run.map((step) => step.args),
          ctx,
        );
        answers.forEach((answer, k) => {
          if (answer instanceof MutationError) return refusal(index + k, answer);
          // Written already: a shape its own checks broke must not be half-applied; abort all.
          const after = argsProblem(name, answer);
          if (after !== null) throw new Error(`${name} normalized its args out of shape: ${after}`);
          queued.push(outboxEntry(name, answer, ctx));
        });
        index += run.length;
        continue;
      }
      const step = steps[index]!;
      try {
        const normalized = await checkAndApply(db, step.name, step.args, ctx);
        queued.push(outboxEntry(step.name, normalized, ctx));
      } catch (error) {
        refusal(index, error);
      }
      index += 1;
    }
    reveal();
    const seqs = await db.outbox.bulkAdd(queued, { allKeys: true });
    queued.forEach((row, i) => (row.seq = seqs[i]));
    return { queued, refused };
  });
  return run.catch((error: unknown) => Promise.reject(storageFullOr(error)));
}
