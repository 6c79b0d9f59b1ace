/**
 * The only way the UI writes (docs/architecture.md, "The write path"): the change on screen at
 * once (change-on-screen.ts), its transaction after the paint (after-paint.ts), checked, applied
 * and queued in it (run-mutator.ts), then the sync told.
 */
import type { MutationArgs, MutationName } from '../domain/mutation-contract.ts';
import { BURST_MS, inBurst, mutationEnded, turnOf } from './after-paint.ts';
import { WAKE_MS } from './burst-wakes.ts';
import { showPrediction } from './change-on-screen.ts';
import type { LinkboardDb } from './db.ts';
import type { MutationContext } from './mutation-context.ts';
import type { OutboxRow } from './rows.ts';
import { runMutator, runMutators, type MutateManyResult, type MutationStep } from './run-mutator.ts';

export interface MutateOptions {
  /** The mutation id; a fresh uuid by default (tests inject one). */
  id?: string;
}

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
  // A save of a burst (a loop of saves) is shown with the burst's others every WAKE_MS, not at once.
  if (inBurst(db)) db.pending.coalesce(WAKE_MS);
  // What the change will write is on screen in the next frame, before any read.
  const prediction = showPrediction(db, name, args, ctx);
  try {
    // A predicted change is painted before its transaction starts: opening it and copying the rows
    // into IndexedDB (hundreds for a series) takes milliseconds the frame that shows them need not wait for.
    const burst = await turnOf(db, prediction !== null);
    const row = await runMutator(db, name, args, ctx, prediction, { id: options.id, burst });
    tellCommitted(db, row, burst);
    return row;
  } finally {
    mutationEnded(db);
    // Refused or failed: the change is taken back (revealed already: nothing left to drop).
    if (prediction) db.pending.drop(prediction);
  }
}

/** When listeners were last told of a commit, and the latest commit a burst has not told yet, per database. */
const told = new WeakMap<LinkboardDb, { at: number; latest: OutboxRow | null }>();

/**
 * Tells the listeners (the sync's triggers, Background Sync, the outbox marker) of a commit: at
 * once for a save after a pause, and within a burst (a loop of saves, `burst` from turnOf) at most
 * once per BURST_MS, of its latest commit. Each listener reads the whole queue, so one telling
 * covers every commit before it; a thousand saves in a row make a few dozen, not a thousand (each
 * asks the service worker for Background Sync and reads the outbox).
 */
function tellCommitted(db: LinkboardDb, row: OutboxRow, burst: boolean): void {
  let state = told.get(db);
  if (!state) told.set(db, (state = { at: -Infinity, latest: null }));
  if (!burst && state.latest === null) {
    state.at = performance.now();
    db.notifyMutation(row);
    return;
  }
  const waiting = state.latest !== null;
  state.latest = row;
  if (!waiting) tellLatestLater(db, state);
}

/** Tells the burst's latest commit once BURST_MS have passed since the last telling. */
function tellLatestLater(db: LinkboardDb, state: { at: number; latest: OutboxRow | null }): void {
  const wait = BURST_MS - (performance.now() - state.at);
  if (wait > 0) {
    setTimeout(() => tellLatestLater(db, state), wait);
    return;
  }
  const latest = state.latest;
  state.latest = null;
  state.at = performance.now();
  if (latest) db.notifyMutation(latest);
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
  const result = await runMutators(db, steps, ctx, options.skipRefused ?? false);
  const last = result.queued.at(-1);
  if (last && !options.quiet) db.notifyMutation(last);
  return result;
}
