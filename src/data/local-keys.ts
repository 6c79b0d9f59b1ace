/**
 * The local keys every stored row of a table carries besides its fields (synced-tables.ts
 * `local`: never columns, never sent or exported), derived from the row on every put by one
 * DBCore middleware, so they can never disagree with it: the calendar's (calendar-index.ts) and a
 * link's identity (link-index.ts).
 */
import type { DBCore, DBCoreMutateRequest, Middleware } from 'dexie';
import { withCalendarKeys, type IndexedCalendarRow } from './calendar-index.ts';
import { withLinkKeys } from './link-index.ts';
import { wordsDeferredIn } from './word-backlog.ts';

type Derive = (row: never, deferWords: boolean) => object;

/** Per table, the row with its local keys set (stale ones dropped). */
const derivers: Readonly<Record<string, Derive>> = {
  calendar_events: (row: IndexedCalendarRow) => withCalendarKeys(row),
  saved_links: (row: { url: string }, deferWords: boolean) => withLinkKeys(row, !deferWords),
};

/**
 * The row of `table` with its local keys, or the row itself for a table without any. With
 * `deferWords`, a link's words are left to the word backlog's pass (word-backlog.ts).
 */
export function withLocalKeys<T extends object>(table: string, row: T, deferWords = false): T {
  const derive = derivers[table] as ((row: T, deferWords: boolean) => T) | undefined;
  return derive ? derive(row, deferWords) : row;
}

/**
 * The DBCore middleware setting the keys on every row put into a table that has them. It must
 * sit above the counts middleware (which counts `_kind`) and Dexie's own live-query tracking
 * (level 0), which then sees the keys a write changes and wakes the queries over those ranges.
 */
export function localKeysMiddleware(): Middleware<DBCore> {
  return {
    stack: 'dbcore',
    name: 'LocalKeys',
    level: 11,
    create(down) {
      return {
        ...down,
        table(name) {
          const inner = down.table(name);
          if (!Object.hasOwn(derivers, name)) return inner;
          return {
            ...inner,
            mutate(req: DBCoreMutateRequest) {
              if (req.type !== 'add' && req.type !== 'put') return inner.mutate(req);
              const deferWords = wordsDeferredIn(req.trans);
              const values = req.values.map((value: object) => withLocalKeys(name, value, deferWords));
              return inner.mutate({ ...req, values });
            },
          };
        },
      };
    },
  };
}
