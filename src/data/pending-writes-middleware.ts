/**
 * The DBCore middleware that feeds `db.pending` (pending-writes.ts): the writes of a tracked
 * transaction as they are issued, and the latest rows seen of a few small tables for predictions.
 */
import type { DBCore, DBCoreMutateRequest, Middleware } from 'dexie';
import type { PendingWrite, PendingWrites, Row } from './pending-writes.ts';

function writesOf(
  req: DBCoreMutateRequest,
  keyPath: string | null,
): { key: string; row: PendingWrite['row'] }[] | null {
  switch (req.type) {
    case 'add':
    case 'put':
      if (keyPath === null) return null;
      return req.values.map((value: Record<string, unknown>) => ({ key: String(value[keyPath]), row: { ...value } }));
    case 'delete':
      return req.keys.map((key) => ({ key: String(key), row: null }));
    default:
      // A range delete names no rows: screens see it after the commit, as before.
      return null;
  }
}

/**
 * Small tables whose rows predictions may read: a directory's owner (a few per user), and the
 * user's answers to a time poll (one row per poll and voter).
 */
const knownTables: ReadonlySet<string> = new Set(['link_directories', 'slot_answers']);

const rowsOf = (values: readonly unknown[], keyPath: string) =>
  values
    .filter((value): value is Row => typeof value === 'object' && value !== null)
    .map((row) => ({ key: String(row[keyPath]), row }));

/**
 * The DBCore middleware that reports a tracked transaction's writes to `tables` to `pending`,
 * and every row of a known table read or written (PendingWrites.knownRow).
 */
export function pendingWritesMiddleware(pending: PendingWrites, tables: ReadonlySet<string>): Middleware<DBCore> {
  return {
    stack: 'dbcore',
    name: 'PendingWrites',
    create(down) {
      return {
        ...down,
        table(name) {
          const table = down.table(name);
          if (!tables.has(name)) return table;
          const keyPath = typeof table.schema.primaryKey.keyPath === 'string' ? table.schema.primaryKey.keyPath : null;
          const known = knownTables.has(name) && keyPath !== null;
          const wrapped: typeof table = {
            ...table,
            mutate(req) {
              const result = table.mutate(req);
              const writes = writesOf(req, keyPath);
              if (writes) pending.written(req.trans, name, writes);
              if (known) pending.saw(name, writes);
              return result;
            },
          };
          if (!known) return wrapped;
          return {
            ...wrapped,
            get: (req) =>
              table.get(req).then((row: unknown) => {
                pending.saw(name, rowsOf([row], keyPath));
                return row;
              }),
            getMany: (req) =>
              table.getMany(req).then((rows: unknown[]) => {
                pending.saw(name, rowsOf(rows, keyPath));
                return rows;
              }),
            query: (req) =>
              table.query(req).then((answer) => {
                if (req.values) pending.saw(name, rowsOf(answer.result, keyPath));
                return answer;
              }),
          };
        },
      };
    },
  };
}
