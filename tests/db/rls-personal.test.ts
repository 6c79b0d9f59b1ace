import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { anonymous, as, createUser, dbKinds, freshDb, insertRow, outcomes, type Actor } from '../support/db.ts';

type Row = { id: string };
const DENIED = 'error 42501';

describe.each(dbKinds)('RLS on profiles and calendar events (%s)', (kind) => {
  let db: Db;
  let owner: Required<Pick<Actor, 'id' | 'email'>>;
  let other: Required<Pick<Actor, 'id' | 'email'>>;
  let actors: Record<string, Actor>;
  let event: Row;

  beforeAll(async () => {
    db = await freshDb(kind);
    owner = await createUser(db);
    other = await createUser(db);
    actors = { anonymous, other, owner };
    event = await insertRow<Row>(db, 'calendar_events', {
      title: 'Standup',
      starts_at: '2030-01-01T09:00:00Z',
      ends_at: '2030-01-01T09:15:00Z',
      owner_id: owner.id,
    });
  });
  afterAll(() => db.close());

  describe('user_profiles', () => {
    it('select: only the own row', async () => {
      expect(await outcomes(db, actors, 'select id from public.user_profiles')).toEqual({
        anonymous: 0,
        other: 1,
        owner: 1,
      });
      expect(await outcomes(db, actors, 'select id from public.user_profiles where id = $1', [owner.id])).toEqual({
        anonymous: 0,
        other: 0,
        owner: 1,
      });
    });

    it('update: only the own row', async () => {
      const update = "update public.user_profiles set bio = 'hi' where id = $1 returning id";
      expect(await outcomes(db, actors, update, [owner.id])).toEqual({ anonymous: 0, other: 0, owner: 1 });
    });

    it('insert and delete: never from a client', async () => {
      const insert = 'insert into public.user_profiles (id) values (gen_random_uuid()) returning id';
      expect(await outcomes(db, actors, insert)).toEqual({ anonymous: DENIED, other: DENIED, owner: DENIED });
      const remove = 'delete from public.user_profiles where id = $1 returning id';
      expect(await outcomes(db, actors, remove, [owner.id])).toEqual({ anonymous: 0, other: 0, owner: 0 });
    });

    it('refuses an unknown time zone and an invalid username', async () => {
      const zone = "update public.user_profiles set time_zone = 'Mars/Olympus' where id = $1 returning id";
      expect(await outcomes(db, { owner }, zone, [owner.id])).toEqual({ owner: 'error 22023' });
      const name = "update public.user_profiles set username = 'a!' where id = $1 returning id";
      expect(await outcomes(db, { owner }, name, [owner.id])).toEqual({ owner: 'error 22023' });
      const ok = "update public.user_profiles set time_zone = 'Europe/Berlin' where id = $1 returning id";
      expect(await outcomes(db, { owner }, ok, [owner.id])).toEqual({ owner: 1 });
    });
  });

  describe('calendar_events', () => {
    it('select, update and delete: owner only', async () => {
      const only = { anonymous: 0, other: 0, owner: 1 };
      expect(await outcomes(db, actors, 'select id from public.calendar_events where id = $1', [event.id])).toEqual(
        only,
      );
      const update = 'update public.calendar_events set is_completed = true where id = $1 returning id';
      expect(await outcomes(db, actors, update, [event.id])).toEqual(only);
      const remove = 'delete from public.calendar_events where id = $1 returning id';
      expect(await outcomes(db, actors, remove, [event.id])).toEqual(only);
    });

    it('insert: own events only', async () => {
      const own =
        "insert into public.calendar_events (title, starts_at, ends_at) values ('Mine', now(), now()) returning id";
      expect(await outcomes(db, actors, own)).toEqual({ anonymous: DENIED, other: 1, owner: 1 });
      const forOwner =
        "insert into public.calendar_events (title, starts_at, owner_id, is_task) values ('X', now(), $1, true) returning id";
      expect(await outcomes(db, actors, forOwner, [owner.id])).toEqual({
        anonymous: DENIED,
        other: DENIED,
        owner: 1,
      });
    });

    it('checks shape: end not before start, an event needs a start, a task may have none', async () => {
      const backwards =
        "insert into public.calendar_events (title, starts_at, ends_at) values ('B', now(), now() - interval '1 hour') returning id";
      const noStart = "insert into public.calendar_events (title) values ('No start') returning id";
      const task =
        "insert into public.calendar_events (title, is_task, priority) values ('Task', true, 'high') returning id";
      const badPriority =
        "insert into public.calendar_events (title, is_task, priority) values ('T', true, 'urgent') returning id";
      expect(await outcomes(db, { owner }, backwards)).toEqual({ owner: 'error 23514' });
      expect(await outcomes(db, { owner }, noStart)).toEqual({ owner: 'error 23514' });
      expect(await outcomes(db, { owner }, task)).toEqual({ owner: 1 });
      expect(await outcomes(db, { owner }, badPriority)).toEqual({ owner: 'error 23514' });
    });

    it('bumps updated_at and txid on update, and sets created_at on a client insert', async () => {
      const before = await db.query<{ txid: string; updated_at: Date }>(
        'select txid::text as txid, updated_at from public.calendar_events where id = $1',
        [event.id],
      );
      await as(db, owner, (sql) =>
        sql.query("update public.calendar_events set title = 'Moved', txid = '1' where id = $1", [event.id]),
      );
      const after = await db.query<{ txid: string; updated_at: Date }>(
        'select txid::text as txid, updated_at from public.calendar_events where id = $1',
        [event.id],
      );
      expect(BigInt(after.rows[0]!.txid)).toBeGreaterThan(BigInt(before.rows[0]!.txid));
      expect(after.rows[0]!.updated_at.getTime()).toBeGreaterThan(before.rows[0]!.updated_at.getTime());

      const created = await as(db, owner, async (sql) => {
        const { rows } = await sql.query<{ age: number }>(
          `insert into public.calendar_events (title, is_task, created_at) values ('Backdated', true, '2000-01-01')
           returning extract(epoch from now() - created_at)::float8 as age`,
        );
        return rows[0]!.age;
      });
      expect(created).toBe(0);
    });
  });
});
