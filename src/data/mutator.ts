/** The shape of a client mutator: checks, then the optimistic change (reused by the sync rebase). */
import type { MutationArgs, MutationName } from '../domain/mutation-contract.ts';
import type { LinkboardDb } from './db.ts';
import type { MutationContext } from './mutation-context.ts';
import type { MutationError } from './mutation-error.ts';
import type { Predicted } from './pending-writes.ts';
import type { SyncedTableName } from './synced-tables.ts';
import type { Target } from './targets.ts';

/**
 * The database as seen inside a Dexie transaction scope: every table used must be listed in
 * the mutator's `tables` (Dexie refuses others).
 */
export type LinkboardTx = LinkboardDb;

export interface Mutator<N extends MutationName> {
  /** Tables read or written by validate and apply. */
  tables: readonly SyncedTableName[];
  /**
   * The rows apply reads or writes, from the args alone: a server write to one of them may
   * have overwritten the optimistic change, so the rebase re-applies the mutation.
   */
  targets(args: MutationArgs[N], ctx: Pick<MutationContext, 'userId'>): readonly Target[];
  /** Throws a MutationError, or returns the args as they will be queued (normalized). */
  validate(tx: LinkboardTx, args: MutationArgs[N], ctx: MutationContext): Promise<MutationArgs[N]>;
  /** The optimistic change. Absolute and idempotent: a rebase runs it again over server rows. */
  apply(tx: LinkboardTx, args: MutationArgs[N], ctx: MutationContext): Promise<void>;
  /**
   * Optional: the writes `apply` will make, foreseen from the args and `known` rows without
   * reading IndexedDB, so the frame after the click shows the change while the transaction
   * checks and writes it. Null when they cannot be foreseen, or when a
   * check that needs no read already refuses (the transaction then says why). A prediction
   * the transaction refuses is taken back; one it writes otherwise is replaced by its writes.
   */
  predict?(args: MutationArgs[N], ctx: MutationContext, known: Known): readonly Predicted[] | null;
  /**
   * Optional, for an action that makes many of this mutation (an import, through mutateMany):
   * validate and apply each, in order, as validate then apply would, answering each one's
   * normalized args or its refusal, with fewer round trips to IndexedDB.
   */
  many?(tx: LinkboardTx, list: MutationArgs[N][], ctx: MutationContext): Promise<(MutationArgs[N] | MutationError)[]>;
}

/** Rows a prediction may use: the latest seen of a small table's row (pending-writes.ts). */
export interface Known {
  row(table: 'link_directories' | 'slot_answers', key: string): Readonly<Record<string, unknown>> | undefined;
}

export type MutatorRegistry = { [N in MutationName]: Mutator<N> };

/** The fields of `args` among `keys` that are present (an update carries only changed fields). */
export function present<T extends object, K extends keyof T>(args: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const key of keys) {
    if (key in args && args[key] !== undefined) out[key] = args[key];
  }
  return out;
}

export function stamp(ctx: MutationContext): { created_at: string; updated_at: string } {
  const now = ctx.now().toISOString();
  return { created_at: now, updated_at: now };
}
