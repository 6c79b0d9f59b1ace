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

export interface MutateOptions {
  /** The mutation id; a fresh uuid by default (tests inject one). */
  id?: string;
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
  const mutator = mutators[name] as Mutator<N>;
  // A caller outside TypeScript's reach (a stale form state, a cast) is refused, never queued.
  const problem = argsProblem(name, args);
  const tables = [...mutator.tables.map((table) => db.table(table)), db.outbox];
  const row = await db.transaction('rw', tables, async () => {
    // What apply writes is on screen before the commit (pending-writes.ts).
    const tx = Dexie.currentTransaction;
    if (tx) db.pending.track(tx.idbtrans);
    // The mutator's own checks come first, so a refusal keeps the spec's wording; whatever they
    // let through must still have the shape of the args.
    let normalized: MutationArgs[N];
    try {
      normalized = await mutator.validate(db, args, ctx);
    } catch (error) {
      if (problem !== null && !(error instanceof MutationError)) refuse('invalid', problem);
      throw error;
    }
    const after = argsProblem(name, normalized);
    if (after !== null) refuse('invalid', after);
    await mutator.apply(db, normalized, ctx);
    // Every row of the change at once: a screen never shows half of it.
    if (tx) db.pending.reveal(tx.idbtrans);
    const queued: OutboxRow = {
      id: options.id ?? crypto.randomUUID(),
      name,
      args: normalized as unknown as Record<string, unknown>,
      created_at: ctx.now().toISOString(),
      attempts: 0,
      status: 'pending',
      version: OUTBOX_VERSION,
    };
    queued.seq = await db.outbox.add(queued);
    return queued;
  });
  db.notifyMutation(row);
  return row;
}
