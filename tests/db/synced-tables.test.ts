/**
 * The registry of synced tables (src/data/synced-tables.ts) and the server agree: a table declared on one side only, a declared field that is not a column, or a row
 * the client's check would refuse fails here, on PGlite and on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { checkRows, syncedTableNames, syncedTables, type SyncedTableSpec } from '../../src/data/synced-tables.ts';
import { createUser, dbKinds, freshDb } from '../support/db.ts';
import { mutation, pullAll, push, uuid } from '../sync-server/sync.ts';

const sorted = (names: Iterable<string>) => [...names].sort();

describe.each(dbKinds)('synced tables, client and server (%s)', (kind) => {
  let db: Db;

  beforeAll(async () => {
    db = await freshDb(kind);
  });
  afterAll(() => db.close());

  it('declares exactly the public tables that carry a txid and deleted_at (the synced ones)', async () => {
    const { rows } = await db.query<{ table_name: string }>(
      `select c.table_name from information_schema.columns c
       where c.table_schema = 'public' and c.column_name = 'txid'
         and exists (select 1 from information_schema.columns d where d.table_schema = 'public'
                     and d.table_name = c.table_name and d.column_name = 'deleted_at')`,
    );
    expect(sorted(rows.map((row) => row.table_name))).toEqual(sorted(syncedTableNames));
  });

  it('declares only fields that are columns, and indexes and visibility only columns', async () => {
    for (const name of syncedTableNames) {
      const spec: SyncedTableSpec = syncedTables[name];
      const { rows } = await db.query<{ column_name: string }>(
        `select column_name from information_schema.columns where table_schema = 'public' and table_name = $1`,
        [name],
      );
      const columns = new Set(rows.map((row) => row.column_name));
      const declared = Object.keys(spec.fields).filter((field) => !(spec.notColumns ?? []).includes(field));
      expect(
        declared.filter((field) => !columns.has(field)),
        name,
      ).toEqual([]);
      expect(
        // A compound index '[a+b]' names its columns between the brackets.
        [spec.key, ...spec.indexes.flatMap((index) => index.replace(/^\[|\]$/g, '').split('+'))].filter(
          (field) => !columns.has(field),
        ),
        name,
      ).toEqual([]);
      const { own, directory, email, publicWhenNull } = spec.visibleTo;
      expect(
        [own, directory, email, publicWhenNull].filter((field) => field !== undefined && !columns.has(field)),
        name,
      ).toEqual([]);
    }
  });

  it("answers a full pull with the declared tables, every row passing the client's check", async () => {
    const user = await createUser(db, { tier: 'team' });
    const directory = uuid();
    const poll = uuid();
    const results = await push(
      db,
      user,
      mutation('directory.create', { id: directory, name: 'Registry' }),
      mutation('link.create', { id: uuid(), directory_id: directory, url: 'https://a.test', title: 'A' }),
      mutation('member.invite', { id: uuid(), directory_id: directory, user_email: 'm@example.com', role: 'viewer' }),
      mutation('event.create', { id: uuid(), title: 'E', starts_at: null, ends_at: null, is_task: true }),
      mutation('poll.create', { id: poll, title: 'P', options: ['a', 'b'], directory_id: directory }),
      mutation('poll.vote', { id: uuid(), post_id: poll, option_index: 0 }),
    );
    expect(results.map((result) => result.status)).toEqual(Array(6).fill('applied'));
    // A time poll of someone else's, answered and picked: the user's answers row and invitation.
    const creator = await createUser(db);
    const timePoll = uuid();
    const slot = uuid();
    const slots = [
      { id: slot, start: '2031-01-01T09:00:00Z', minutes: 60 },
      { id: uuid(), day: '2031-01-02' },
    ];
    const args = { id: timePoll, title: 'When?', time_zone: 'UTC', slots };
    results.push(...(await push(db, creator, mutation('poll.create_time', args))));
    results.push(
      ...(await push(
        db,
        user,
        mutation('poll.answer', { id: uuid(), post_id: timePoll, slot_id: slot, answer: 'yes' }),
      )),
    );
    results.push(
      ...(await push(db, creator, mutation('poll.pick', { id: timePoll, slot_id: slot, event_id: uuid() }))),
    );
    expect(results.map((result) => result.status)).toEqual(Array(9).fill('applied'));

    const { pages } = await pullAll(db, user);
    const tables = new Set(pages.flatMap((page) => Object.keys(page.changes)));
    expect(sorted(tables)).toEqual(sorted(syncedTableNames));
    for (const name of syncedTableNames) {
      const rows = pages.flatMap((page) => page.changes[name] ?? []);
      expect(rows.length, name).toBeGreaterThan(0);
      expect(() => checkRows(name, rows)).not.toThrow();
    }
    // Push answers carry the same rows: they pass too.
    for (const result of results) {
      for (const [name, rows] of Object.entries(result.rows)) {
        expect(syncedTableNames).toContain(name);
        expect(() => checkRows(name as (typeof syncedTableNames)[number], rows)).not.toThrow();
      }
    }
  });
});
