/** A table read in pages by primary key, so a large one is never all in memory, nor one long read. */
import type { Table } from 'dexie';

/** Calls `visit` with each page of at most `size` rows of `table`, in key order (keys are the rows' `id`). */
export async function forEachPageByKey<T extends { id: string }>(
  table: Table<T, string>,
  size: number,
  visit: (rows: T[]) => void | Promise<void>,
): Promise<void> {
  let after: string | null = null;
  for (;;) {
    const rows: T[] = await (after === null ? table.orderBy(':id') : table.where(':id').above(after))
      .limit(size)
      .toArray();
    if (rows.length > 0) await visit(rows);
    if (rows.length < size) return;
    after = rows[rows.length - 1]!.id;
  }
}
