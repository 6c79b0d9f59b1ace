/** Re-applies queued mutations over server rows, so an optimistic change is never lost (design 3). */
import type { LinkboardDb } from '../data/db.ts';
import type { MutationContext } from '../data/mutation-context.ts';
import { mutatorOf } from '../data/mutators.ts';
import type { OutboxRow } from '../data/rows.ts';
import type { WireRows } from '../backend/sync-transport.ts';

/** What a write of server rows touched: the rows' ids, and the directories and series they sit in. */
export interface Touched {
  ids: Set<string>;
  parents: Set<string>;
}

/** A new, empty record of what server writes touched. */
export function nothingTouched(): Touched {
  return { ids: new Set(), parents: new Set() };
}

/** Notes written server rows (live or tombstones) and deleted ids in `touched`. */
export function noteTouched(
  touched: Touched,
  rows: WireRows | undefined,
  deleted?: Partial<Record<string, readonly string[]>>,
): void {
  for (const list of Object.values(rows ?? {})) {
    for (const row of list ?? []) {
      touched.ids.add(String(row.id));
      for (const key of ['directory_id', 'series_id', 'post_id'] as const) {
        if (typeof row[key] === 'string') touched.parents.add(row[key]);
      }
    }
  }
  for (const ids of Object.values(deleted ?? {})) for (const id of ids ?? []) touched.ids.add(String(id));
}

/** Every string in a mutation's args (ids sit at the top level or in `occurrences`). */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, out);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) strings(item, out);
  return out;
}

/**
 * Whether re-applying `mutation` could change anything after server rows `touched` were written:
 * it writes one of those rows (its args name the row), it is the user's profile update and the
 * profile was written, or it drops a directory or series a written row sits in.
 */
export function mayTouch(mutation: OutboxRow, touched: Touched, userId: string): boolean {
  const args = mutation.args;
  if (mutation.name === 'profile.update') return touched.ids.has(userId);
  const cascade =
    mutation.name === 'directory.delete'
      ? args.id
      : mutation.name === 'series.delete'
        ? args.series_id
        : mutation.name === 'series.replace'
          ? args.old_series_id
          : undefined;
  if (typeof cascade === 'string' && touched.parents.has(cascade)) return true;
  return strings(args).some((value) => touched.ids.has(value));
}

/**
 * Runs inside the caller's transaction (every synced table and the outbox in scope). Every
 * outbox row, pending or failed, is re-applied in queue order, with its own creation time as
 * the clock. A mutation whose target is gone is a no-op (updates of missing rows do nothing).
 * With `touched`, only the mutations that may touch those rows are re-applied (the others'
 * optimistic rows were not overwritten), so a push answer does not re-apply the whole queue.
 */
export async function rebase(db: LinkboardDb, ctx: MutationContext, touched?: Touched): Promise<void> {
  const queue = await db.outbox.orderBy('seq').toArray();
  for (const mutation of queue) {
    if (touched && !mayTouch(mutation, touched, ctx.userId)) continue;
    const at = new Date(mutation.created_at);
    await mutatorOf(mutation.name).apply(db, mutation.args as never, { ...ctx, now: () => at });
  }
}
