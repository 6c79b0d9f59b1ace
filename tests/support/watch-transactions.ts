/** A record of the IndexedDB transactions a Dexie database opens, for tests of how a change is written. */
import type { DBCore, DbCoreTransactionOptions, Dexie } from 'dexie';

export interface SeenTransaction {
  mode: 'readonly' | 'readwrite';
  stores: string[];
}

export interface TransactionWatch {
  /** Every transaction opened since the watch began, in order. */
  readonly all: readonly SeenTransaction[];
  /** The read-write ones among them. */
  readonly writes: readonly SeenTransaction[];
}

/** Watches every IndexedDB transaction `db` opens from now on (at the top of Dexie's DBCore). */
export function watchTransactions(db: Dexie): TransactionWatch {
  const all: SeenTransaction[] = [];
  const core = db.core;
  (db as { core: DBCore }).core = {
    ...core,
    transaction(stores: string[], mode: 'readonly' | 'readwrite', options?: DbCoreTransactionOptions) {
      all.push({ mode, stores: [...stores] });
      return core.transaction(stores, mode, options);
    },
  };
  return {
    all,
    get writes() {
      return all.filter((tx) => tx.mode === 'readwrite');
    },
  };
}
