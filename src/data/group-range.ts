/**
 * The rows of a group (a directory's links, members or polls) read through the table's index on
 * the group's column, or, where the table has none, through a compound index that begins with it
 * (saved_links' `[directory_id+created_at+id]`: an index on `directory_id` alone would cost every
 * pulled link one more entry, docs/scale.md). The compound range is written out (from `[value]`,
 * below every longer key of the value, to `[value, []]`, above them: an array sorts after strings
 * and numbers) rather than left to Dexie, whose padding repeats one maximum key object, which
 * IndexedDB's key rules refuse in fake-indexeddb.
 */
import type { Collection, Table } from 'dexie';

export function whereGroup<T, K>(table: Table<T, K>, column: string, value: string): Collection<T, K> {
  const { indexes } = table.schema;
  if (indexes.some((index) => index.name === column)) return table.where(column).equals(value);
  const compound = indexes.find((index) => Array.isArray(index.keyPath) && index.keyPath[0] === column);
  if (!compound) throw new Error(`No index of ${table.name} begins with ${column}`);
  return table.where(compound.name).between([value], [value, []], true, true);
}

/** The primary keys of the rows of every group of `values`. */
export async function groupKeys<T, K>(table: Table<T, K>, column: string, values: readonly string[]): Promise<K[]> {
  if (table.schema.indexes.some((index) => index.name === column)) {
    return table
      .where(column)
      .anyOf([...values])
      .primaryKeys();
  }
  const keys: K[] = [];
  for (const value of values) keys.push(...(await whereGroup(table, column, value).primaryKeys()));
  return keys;
}
