/** The only way the UI writes: check, apply optimistically and queue, in one transaction. */
import { Dexie } from 'dexie';
import type { MutationName } from '../domain/mutation-names.ts';
import type { LinkboardDb } from './db.ts';
import { argsProblem, type MutationArgs } from './mutation-args.ts';
import { MutationError, refuse } from './mutation-error.ts';
import { OUTBOX_VERSION } from './outbox.ts';
import type { MutationContext } from './mutation-context.ts';
import { mutators } from './mutators.ts';
import type { Mutator } from './mutator.ts';
import type { OutboxRow } from './rows.ts';
import type { Predicted, Prediction } from './pending-writes.ts';
import { findUnstorableText, unstorableTextMessage } from '../domain/storable-text.ts';

export interface MutateOptions {
  /** The mutation id; a fresh uuid by default (tests inject one). */
  id?: string;
}

/** One mutation of a batch (mutateMany). */
export type MutationStep = { [N in MutationName]: { name: N; args: MutationArgs[N] } }[MutationName];

export interface MutateManyOptions {
  /**
   * A refused step (a MutationError: over a limit, a duplicate) is reported and the others are
   * queued; by default the first refusal writes nothing at all.
   */
  skipRefused?: boolean;
  /**
   * Do not tell the sync of these (the caller tells it once, after its last batch): an import's
   * batches then do not share IndexedDB with pushes of the batches before them.
   */
  quiet?: boolean;
}

export interface MutateManyResult {
  /** The queued outbox rows, in the steps' order. */
  queued: OutboxRow[];
  /** The refused steps (with skipRefused), by their index in `steps`. */
  refused: { index: number; error: MutationError }[];
}

/**
 * Checks `args` with the mutator's own rules first (a refusal keeps the spec's wording), then
 * their shape, and applies the change. Runs inside the caller's transaction.
 */
async function checkAndApply<N extends MutationName>(
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
  await mutator.apply(db, normalized, ctx);
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

/**
 * Validates `args` with the same rules and plan limits as the server, then applies the
 * optimistic change and appends the outbox row in ONE read-write transaction. Throws a
 * MutationError (nothing written) when refused. Returns the queued outbox row.
 */
export async function mutate<N extends MutationName>(
  db: LinkboardDb,
  name: N,
  args: MutationArgs[N],
  ctx: MutationContext,
  options: MutateOptions = {},
): Promise<OutboxRow> {
  // What the change will write is on screen in the next frame, before any read (pending-writes.ts).
  const prediction = predict(db, name, args, ctx);
  try {
    // A predicted change is painted before its transaction starts: opening it and copying the rows
    // into IndexedDB (hundreds for a series) takes milliseconds the frame that shows them need not wait for.
    await turnOf(db, prediction !== null);
    const row = await db.transaction('rw', scopeOf(db, [name]), async () => {
      // What apply writes is on screen before the commit.
      const tx = Dexie.currentTransaction;
      if (tx) db.pending.track(tx.idbtrans);
      const normalized = await checkAndApply(db, name, args, ctx);
      // Every row of the change at once, in place of the prediction: a screen never shows half of it.
      if (tx) db.pending.reveal(tx.idbtrans, prediction);
      const queued = outboxEntry(name, normalized, ctx, options.id);
      queued.seq = await db.outbox.add(queued);
      return queued;
    });
    db.notifyMutation(row);
    return row;
  } finally {
    // Refused or failed: the change is taken back (revealed already: nothing left to drop).
    if (prediction) db.pending.drop(prediction);
  }
}

/** The last transaction start still waiting (for a paint), per database. */
const waiting = new WeakMap<LinkboardDb, Promise<void>>();
/** When a mutation's transaction last started, per database (performance.now()). */
const lastStart = new WeakMap<LinkboardDb, number>();
/**
 * Mutations that start closer together than this are one burst (a loop over many rows, the two
 * mutations of one Save): the first waits for a paint, the others go at once, or a loop of a
 * thousand would wait a thousand frames. A person's clicks are further apart.
 */
export const BURST_MS = 50;

/**
 * Waits for this mutation's turn to start its transaction: after the paint when `paintFirst`
 * (unless it is part of a burst), and after any earlier mutation still waiting, so the queue keeps
 * the order of the calls.
 */
async function turnOf(db: LinkboardDb, paintFirst: boolean): Promise<void> {
  const before = waiting.get(db);
  const last = lastStart.get(db);
  const paint = paintFirst && (last === undefined || performance.now() - last >= BURST_MS);
  if (paint || before) {
    const mine = (before ?? Promise.resolve()).then(() => (paint ? afterPaint() : undefined));
    waiting.set(db, mine);
    await mine;
    if (waiting.get(db) === mine) waiting.delete(db);
  }
  lastStart.set(db, performance.now());
}

/** Resolves once the next frame has been painted (at most 100 ms: a hidden tab paints none). */
function afterPaint(): Promise<void> {
  if (typeof requestAnimationFrame !== 'function') return Promise.resolve();
  return new Promise((resolve) => {
    const fallback = setTimeout(resolve, 100);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(fallback);
        resolve();
      }, 0),
    );
  });
}

/** The mutator's prediction of its writes, shown at once; null without one (or when it throws). */
function predict<N extends MutationName>(
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
 * Many mutations made by one action (an import): each checked and applied as `mutate` does,
 * in order (a step sees the ones before it, so plan limits count them), and queued with one
 * bulk write, all in ONE read-write transaction; screens show them together. A MutationError
 * aborts the whole batch unless `skipRefused`, when the step is reported and skipped.
 */
export async function mutateMany(
  db: LinkboardDb,
  steps: readonly MutationStep[],
  ctx: MutationContext,
  options: MutateManyOptions = {},
): Promise<MutateManyResult> {
  if (steps.length === 0) return { queued: [], refused: [] };
  const result = await db.transaction('rw', scopeOf(db, new Set(steps.map((step) => step.name))), async () => {
    const tx = Dexie.currentTransaction;
    if (tx) db.pending.track(tx.idbtrans);
    const queued: OutboxRow[] = [];
    const refused: MutateManyResult['refused'] = [];
    const refusal = (index: number, error: unknown) => {
      if (!(error instanceof MutationError) || !options.skipRefused) throw error;
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
    if (tx) db.pending.reveal(tx.idbtrans);
    const seqs = await db.outbox.bulkAdd(queued, { allKeys: true });
    queued.forEach((row, i) => (row.seq = seqs[i]));
    return { queued, refused };
  });
  const last = result.queued.at(-1);
  if (last && !options.quiet) db.notifyMutation(last);
  return result;
}
