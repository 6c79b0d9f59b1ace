/**
 * The local keys every stored row of a table carries besides its fields (synced-tables.ts
 * `local`: never columns, never sent or exported), derived from the row on every put by one
 * DBCore middleware, so they can never disagree with it: the calendar's (calendar-index.ts) and a
 * link's identity (link-index.ts).
 */
import type { DBCore, DBCoreMutateRequest, Middleware } from 'dexie';
import { withCalendarKeys, type IndexedCalendarRow } from './calendar-index.ts';
import { withLinkKeys } from './link-index.ts';

type Derive = (row: never) => object;

/** Per table, the row with its local keys set (stale ones dropped). */
const derivers: Readonly<Record<string, Derive>> = {
  calendar_events: (row: IndexedCalendarRow) => withCalendarKeys(row),
  saved_links: (row: { url: string }) => withLinkKeys(row),
};

/** The row of `table` with its local keys, or the row itself for a table without any. */
export function withLocalKeys<T extends object>(table: string, row: T): T {
  const derive = derivers[table] as ((row: T) => T) | undefined;
  return derive ? derive(row) : row;
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
              return inner.mutate({ ...req, values: req.values.map((value: object) => withLocalKeys(name, value)) });
            },
          };
        },
      };
    },
  };
}
