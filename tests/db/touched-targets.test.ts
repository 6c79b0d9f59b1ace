/**
 * The server's touched rule against the client's declared targets: each case of
 * tests/data/target-cases.ts is pushed through sync_push (on PGlite and PostgreSQL) over the same
 * fixture rows, and every row private.sync_touched reports for it must be one the client's
 * mutator declares (by id, or by a group column the row holds), else the rebase would miss a
 * server write the mutation overwrote. A mutation on one side only fails too: the server must
 * list exactly the contract's names, and touch at least one row for each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Sql } from '../../supabase/local/db.ts';
import { mutatorOf } from '../../src/data/mutators.ts';
import { isSyncedTableName, type SyncedTableName } from '../../src/data/synced-tables.ts';
import { Touched } from '../../src/data/targets.ts';
import { mutationNames } from '../../src/domain/mutation-contract.ts';
import { as, asRolledBack, dbKinds, freshDb } from '../support/db.ts';
import { mutation, type MutationResult } from '../sync-server/sync.ts';
import { ME } from '../support/builders.ts';
import {
  cases,
  dir,
  event,
  invitation,
  link,
  member,
  poll,
  seriesEvents,
  seriesId,
  timePoll,
} from '../data/target-cases.ts';

const me = { id: ME, email: 'me@example.com' };

async function pushAs(sql: Sql, ...mutations: ReturnType<typeof mutation>[]): Promise<MutationResult[]> {
  const { rows } = await sql.query<{ r: { results: MutationResult[] } }>('select public.sync_push($1::jsonb) as r', [
    JSON.stringify(mutations),
  ]);
  return rows[0]!.r.results;
}

/** The fixture rows of the cases, made on the server the way the client makes them: by pushes. */
const fixtures = [
  mutation('directory.create', { id: dir.id, name: dir.name }),
  mutation('link.create', { id: link.id, directory_id: dir.id, url: link.url, title: link.title }),
  mutation('member.invite', { id: member.id, directory_id: dir.id, user_email: member.user_email, role: member.role }),
  mutation('event.create', {
    id: event.id,
    title: event.title,
    starts_at: event.starts_at,
    ends_at: event.ends_at,
    is_task: false,
  }),
  mutation('series.create', {
    series_id: seriesId,
    rule: 'daily',
    until: '2026-03-18T00:00:00.000Z',
    occurrences: seriesEvents.map((e) => ({
      id: e.id,
      title: e.title,
      description: null,
      starts_at: e.starts_at,
      ends_at: e.ends_at,
    })),
  }),
  mutation('poll.create', {
    id: poll.id,
    title: poll.title,
    options: poll.options.map((option) => option.text),
    directory_id: dir.id,
  }),
  mutation('poll.create_time', {
    id: timePoll.id,
    title: timePoll.title,
    directory_id: dir.id,
    time_zone: timePoll.time_zone,
    slots: timePoll.options.map(({ id, start, minutes, day }) => (day ? { id, day } : { id, start, minutes })),
  }),
];

/** Another user, whose picked public time poll invites the user (the invitation case's row). */
const other = { id: '00000000-0000-4000-8000-0000000000b2', email: 'other@example.com' };
const otherPoll = { id: invitation.post_id!, slot: '00000000-0000-4000-8000-0000000000c3' };

/** The server's rows by id, as the superuser sees them (tombstones included). */
async function rowsOf(sql: Sql, table: SyncedTableName, ids: string[]): Promise<Map<string, Record<string, unknown>>> {
  const { rows } = await sql.query<{ row: Record<string, unknown> }>(
    `select to_jsonb(t) as row from public.${table} t where t.id = any ($1::uuid[])`,
    [ids],
  );
  return new Map(rows.map(({ row }) => [String(row.id), row]));
}

describe.each(dbKinds)('the server touches only declared targets (%s)', (kind) => {
  let db: Db;
  beforeAll(async () => {
    db = await freshDb(kind);
    await db.query(
      `insert into auth.users (id, email, encrypted_password, email_confirmed_at, raw_user_meta_data)
       values ($1, $2, extensions.crypt('password', extensions.gen_salt('bf', 4)), now(), '{"username": "myself"}')`,
      [me.id, me.email],
    );
    await db.query("update public.user_profiles set subscription_tier = 'team' where id = $1", [me.id]);
    const results = await as(db, me, (sql) => pushAs(sql, ...fixtures));
    expect(results.map((r) => [r.status, r.message, r.code])).toEqual(
      fixtures.map(() => ['applied', undefined, undefined]),
    );
    // The invitation: the other user's time poll, answered Yes by the user, picked; the server made the
    // row, which then takes the case's id.
    await db.query(
      `insert into auth.users (id, email, encrypted_password, email_confirmed_at, raw_user_meta_data)
       values ($1, $2, extensions.crypt('password', extensions.gen_salt('bf', 4)), now(), '{"username": "other"}')`,
      [other.id, other.email],
    );
    const steps: [typeof me, ReturnType<typeof mutation>][] = [
      [
        other,
        mutation('poll.create_time', {
          id: otherPoll.id,
          title: invitation.title,
          time_zone: 'UTC',
          slots: [
            { id: otherPoll.slot, start: '2031-03-16T09:00:00.000Z', minutes: 60 },
            { id: '00000000-0000-4000-8000-0000000000c4', day: '2031-03-19' },
          ],
        }),
      ],
      [
        me,
        mutation('poll.answer', { id: invitation.id, post_id: otherPoll.id, slot_id: otherPoll.slot, answer: 'yes' }),
      ],
      [
        other,
        mutation('poll.pick', {
          id: otherPoll.id,
          slot_id: otherPoll.slot,
          event_id: '00000000-0000-4000-8000-0000000000c5',
        }),
      ],
    ];
    for (const [actor, step] of steps) {
      const [answer] = await as(db, actor, (sql) => pushAs(sql, step));
      expect([step.name, answer?.status, answer?.message]).toEqual([step.name, 'applied', undefined]);
    }
    await db.query('update public.event_invitations set id = $1 where user_id = $2 and post_id = $3', [
      invitation.id,
      me.id,
      otherPoll.id,
    ]);
  });
  afterAll(() => db.close());

  it('lists exactly the contract names (a name on one side only fails)', async () => {
    const { rows } = await db.query<{ names: string[] }>('select private.sync_mutation_names() as names');
    expect([...(rows[0]?.names ?? [])].sort()).toEqual(Object.keys(cases).sort());
  });

  it.each(mutationNames)('%s', async (name) => {
    const { args, targets } = cases[name];
    expect(mutatorOf(name).targets(args as never, { userId: ME })).toEqual(targets);
    const { touched, before, after, result } = await asRolledBack(db, me, async (sql) => {
      // The touched rule and the rows are read as the superuser, with the caller's claims set.
      await sql.exec('reset role');
      const { rows } = await sql.query<{ t: Record<string, string[]> }>(
        'select private.sync_touched($1, $2::jsonb) as t',
        [name, JSON.stringify(args)],
      );
      const touched = Object.entries(rows[0]!.t).map(([table, ids]) => {
        if (!isSyncedTableName(table)) throw new Error(`${name} touches ${table}, not a synced table`);
        return { table, ids };
      });
      const read = async () => Promise.all(touched.map(({ table, ids }) => rowsOf(sql, table, ids)));
      const before = await read();
      await sql.exec('set local role authenticated');
      const [result] = await pushAs(sql, mutation(name, args));
      await sql.exec('reset role');
      return { touched, before, after: await read(), result };
    });
    expect(result?.status, result?.message).toBe('applied');
    expect(touched.flatMap(({ ids }) => ids).length, `${name} touches no row on the server`).toBeGreaterThan(0);
    touched.forEach(({ table, ids }, i) => {
      for (const id of ids) {
        const seen = new Touched();
        seen.noteId(table, id);
        const was = before[i]!.get(id);
        const is = after[i]!.get(id);
        if (was) seen.noteRow(table, was);
        if (is) seen.noteRow(table, is);
        expect(seen.hasAny(targets), `the server touches ${table} ${id} for ${name}, undeclared`).toBe(true);
      }
    });
  });
});
