/**
 * The rows a mutation touches, declared by its mutator from its args, and
 * the record of what a server write touched locally. The rebase (src/sync/rebase.ts) re-applies
 * a queued mutation when a server write touched one of its targets.
 */
import { groupsOf, type SyncedTableName } from './synced-tables.ts';

/**
 * One row (`id`), or every row of `table` whose `column` is `value` (a series, a directory's
 * content): the rows a mutator's apply reads or writes.
 */
export type Target = { table: SyncedTableName; id: string } | { table: SyncedTableName; column: string; value: string };

export function rowTarget(table: SyncedTableName, id: string): Target {
  return { table, id };
}

export function groupTarget(table: SyncedTableName, column: string, value: string): Target {
  return { table, column, value };
}

function rowKey(table: string, id: string): string {
  return `${table}#${id}`;
}

function groupKey(table: string, column: string, value: string): string {
  return `${table}.${column}=${value}`;
}

/** What server writes touched locally: rows by id, and the groups those rows sit in. */
export class Touched {
  private readonly keys = new Set<string>();

  /** A row written or deleted: its id, and its values in the table's group columns. */
  noteRow(table: SyncedTableName, row: Record<string, unknown>): void {
    this.noteId(table, String(row.id));
    for (const column of groupsOf(table)) {
      const value = row[column];
      if (typeof value === 'string') this.noteGroup(table, column, value);
    }
  }

  noteId(table: SyncedTableName, id: string): void {
    this.keys.add(rowKey(table, id));
  }

  noteGroup(table: SyncedTableName, column: string, value: string): void {
    this.keys.add(groupKey(table, column, value));
  }

  /** Whether a write touched one of `targets`. */
  hasAny(targets: readonly Target[]): boolean {
    return targets.some((target) =>
      this.keys.has(
        'id' in target ? rowKey(target.table, target.id) : groupKey(target.table, target.column, target.value),
      ),
    );
  }

  get size(): number {
    return this.keys.size;
  }
}
