import type { DBCoreTable } from 'dexie';
import { expect } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { openUserDb, type LinkboardDb } from '../../src/data/db.ts';
import type { MutationContext } from '../../src/data/mutation-context.ts';
import type { Tier } from '../../src/domain/plans.ts';
import { ME } from '../support/builders.ts';

export const NOW = new Date('2026-03-15T12:00:00Z');

/** A fresh fake IndexedDB per call, so tests share nothing. */
export function freshDb(userId = ME): LinkboardDb {
  return openUserDb(userId, { indexedDB: new IDBFactory(), IDBKeyRange });
}

export function ctx(overrides: Partial<MutationContext> = {}): MutationContext {
  return { userId: ME, email: 'me@example.com', tier: 'free', now: () => NOW, timeZone: 'UTC', ...overrides };
}

export const tierCtx = (tier: Tier) => ctx({ tier });

/** Adds a DBCore middleware to `db` that wraps the requests of `table` (`wrap`'s methods), at `level`. */
function wrapTable(
  db: LinkboardDb,
  table: string,
  name: string,
  level: number | undefined,
  wrap: (inner: DBCoreTable) => Partial<DBCoreTable>,
): void {
  db.use({
    stack: 'dbcore',
    name,
    ...(level === undefined ? {} : { level }),
    create: (down) => ({
      ...down,
      table(tableName) {
        const inner = down.table(tableName);
        return tableName === table ? { ...inner, ...wrap(inner) } : inner;
      },
    }),
  });
}

/**
 * Counts the keys `db` reads from `table` by key (get and getMany) from now on, through a DBCore
 * middleware at `level` (below Dexie's own, from 0 down, it counts what IndexedDB itself is asked).
 */
export function countKeysRead(db: LinkboardDb, table: string, level?: number): { n: number } {
  const counter = { n: 0 };
  wrapTable(db, table, `CountKeysRead:${table}`, level, (inner) => ({
    get: (req) => ((counter.n += 1), inner.get(req)),
    getMany: (req) => ((counter.n += req.keys.length), inner.getMany(req)),
  }));
  return counter;
}

/**
 * What `db` asks IndexedDB of `table` from now on, through a DBCore middleware below Dexie's own:
 * each write request (its type and how many keys or rows it names; a range names none) and the
 * rows its queries answered. Add it before the database opens (Dexie builds its stack then).
 */
export function watchTable(
  db: LinkboardDb,
  table: string,
): { writes: { type: string; rows: number }[]; rowsRead: number } {
  const seen = { writes: [] as { type: string; rows: number }[], rowsRead: 0 };
  wrapTable(db, table, `WatchTable:${table}`, -10, (inner) => ({
    mutate: (req) => {
      const rows = req.type === 'deleteRange' ? 0 : req.type === 'delete' ? req.keys.length : req.values.length;
      seen.writes.push({ type: req.type, rows });
      return inner.mutate(req);
    },
    query: async (req) => {
      const answer = await inner.query(req);
      seen.rowsRead += answer.result.length;
      return answer;
    },
  }));
  return seen;
}

/** Everything in the database except meta, for "nothing was written" checks. */
export async function snapshot(db: LinkboardDb): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of db.tables) if (table.name !== 'meta') out[table.name] = await table.toArray();
  return out;
}

/** `run` is refused with `code` (and `message`) and leaves every table of `db` as it was. */
export async function expectRefusedIn(
  db: LinkboardDb,
  run: () => Promise<unknown>,
  code: string,
  message?: string,
): Promise<void> {
  const before = await snapshot(db);
  await expect(run()).rejects.toMatchObject(message ? { code, message } : { code });
  expect(await snapshot(db)).toEqual(before);
}
