/**
 * The events rules as the server holds them, through sync_push and through
 * direct table writes. The Free quota counts calendar months in the owner's profile time zone
 * (23:30 on a month's last day and 00:30 on the next month's first are different months), tasks
 * do not count and Pro is not limited; a series is capped at 1,000 occurrences; another user's
 * event or series cannot be changed by any route.
 *
 * Covered elsewhere and not repeated here: a 1,000-occurrence series applies, 1,001 are refused
 * with nothing saved and a Free series is refused through sync_push
 * (tests/sync-server/push-calendar-polls.test.ts); the Free quota and tasks through direct inserts,
 * and recurrence refused for Free on a direct insert (tests/db/limits.test.ts); moving the time
 * zone does not reset the quota (tests/db/poll-event-quotas.test.ts); another user's direct
 * select, `is_completed` update, hard delete and insert for them (tests/db/rls-personal.test.ts);
 * owner_id cannot be changed (tests/db/protected.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { as, createUser, dbKinds, freshDb, outcome, type Actor } from '../support/db.ts';
import { count, mutation, push, uuid } from '../sync-server/sync.ts';

type User = Required<Pick<Actor, 'id' | 'email'>>;

const QUOTA = 'Upgrade to Pro to create more than 10 events per month.';
const CAP = 'A series can have at most 1,000 occurrences.';
const RECURRING = 'Recurring events are a Pro feature.';
const ZONE = 'Asia/Tokyo';

/** This month's first day in `zone`, shifted by `offset` (an interval), as an instant. */
const monthStartIn = (zone: string, offset: string) =>
  `(date_trunc('month', now() at time zone '${zone}') + interval '${offset}') at time zone '${zone}'`;

function occurrences(n: number, title = 'Gym') {
  return Array.from({ length: n }, (_, i) => ({
    id: uuid(),
    title,
    description: null,
    starts_at: new Date(Date.UTC(2031, 0, 1 + i, 7)).toISOString(),
    ends_at: new Date(Date.UTC(2031, 0, 1 + i, 8)).toISOString(),
  }));
}

const seriesArgs = (n: number, title = 'Gym') => ({
  series_id: uuid(),
  rule: 'daily',
  until: '2040-01-01T00:00:00Z',
  occurrences: occurrences(n, title),
});

const newEvent = (title = 'E', isTask = false) =>
  mutation('event.create', {
    id: uuid(),
    title,
    starts_at: isTask ? null : '2031-02-01T10:00:00Z',
    ends_at: null,
    is_task: isTask,
  });

describe.each(dbKinds)('events rules (%s)', (kind) => {
  let db: Db;

  beforeAll(async () => {
    db = await freshDb(kind);
  });
  afterAll(() => db.close());

  const inZone = async (zone: string, tier: 'free' | 'pro' = 'free') => {
    const user = await createUser(db, { tier });
    await db.query('update public.user_profiles set time_zone = $2 where id = $1', [user.id, zone]);
    return user;
  };
  /** n non-task events of user created at `at` (an SQL instant), as test setup. */
  const backdated = (user: User, n: number, at: string) =>
    db.query(
      `insert into public.calendar_events (title, starts_at, owner_id, created_at)
       select 'Backdated', now(), $1, ${at} from generate_series(1, $2::int)`,
      [user.id, n],
    );
  const quotaMonths = async (user: User) =>
    (
      await db.query<{ month: string; n: number }>(
        `select to_char(quota_month, 'YYYY-MM-DD') as month, count(*)::int as n from public.calendar_events
         where owner_id = $1 and not is_task group by 1 order by 1`,
        [user.id],
      )
    ).rows;
  /** Every column of every row of the given owner, as one checksum. */
  const rowsOf = async (user: User) =>
    (
      await db.query<{ sum: string }>(
        `select coalesce(md5(string_agg(e::text, ',' order by e.id)), '') as sum
         from public.calendar_events e where e.owner_id = $1`,
        [user.id],
      )
    ).rows[0]!.sum;

  describe('the Free quota, per calendar month in the profile time zone', () => {
    it('counts 23:30 on the last day of a month and 00:30 on the first of the next in different months', async () => {
      const tokyo = await inZone(ZONE);
      const utc = await inZone('UTC');
      const monthOf = async (user: User, at: string) =>
        (
          await db.query<{ m: string }>("select to_char(private.quota_month($1, $2::timestamptz), 'YYYY-MM-DD') as m", [
            user.id,
            at,
          ])
        ).rows[0]!.m;
      // 23:30 and 00:30 in Tokyo are 14:30 and 15:30 UTC on 30 November: one month in UTC.
      const lastEvening = '2026-11-30T23:30:00+09:00';
      const firstMorning = '2026-12-01T00:30:00+09:00';
      expect([await monthOf(tokyo, lastEvening), await monthOf(tokyo, firstMorning)]).toEqual([
        '2026-11-01',
        '2026-12-01',
      ]);
      expect([await monthOf(utc, lastEvening), await monthOf(utc, firstMorning)]).toEqual(['2026-11-01', '2026-11-01']);
    });

    it("refuses the 11th event of the owner's month through sync_push, with nothing of it saved", async () => {
      const user = await inZone(ZONE);
      // Ten created at 23:30 on the last day of last month (Tokyo) count in last month ...
      await backdated(user, 10, monthStartIn(ZONE, '-30 minutes'));
      // ... nine at 00:30 on the first of this month count in this one.
      await backdated(user, 9, monthStartIn(ZONE, '30 minutes'));
      const { rows } = await db.query<{ last: string; current: string }>(
        `select to_char(date_trunc('month', now() at time zone '${ZONE}') - interval '1 month', 'YYYY-MM-DD') as last,
                to_char(date_trunc('month', now() at time zone '${ZONE}'), 'YYYY-MM-DD') as current`,
      );
      const { last, current } = rows[0]!;
      expect(await quotaMonths(user)).toEqual([
        { month: last, n: 10 },
        { month: current, n: 9 },
      ]);

      const tenth = newEvent('Tenth');
      expect((await push(db, user, tenth))[0]).toMatchObject({ status: 'applied' });
      const eleventh = newEvent('Eleventh');
      const before = await rowsOf(user);
      const [refused] = await push(db, user, eleventh);
      expect(refused).toMatchObject({
        id: eleventh.id,
        status: 'rejected',
        code: 'limit_reached',
        message: QUOTA,
        deleted: { calendar_events: [eleventh.args.id] },
      });
      expect(await count(db, 'calendar_events', 'id = $1', [eleventh.args.id])).toBe(0);
      expect(await rowsOf(user)).toBe(before);
      expect(await count(db, 'outgoing_mail', "to_address = $1 and body like '%Eleventh%'", [user.email])).toBe(0);

      // Tasks do not count, before or after the limit.
      const tasks = [newEvent('Task 1', true), newEvent('Task 2', true)];
      expect((await push(db, user, ...tasks)).map((r) => r.status)).toEqual(['applied', 'applied']);
      expect(await quotaMonths(user)).toEqual([
        { month: last, n: 10 },
        { month: current, n: 10 },
      ]);
    });

    it('does not limit a Pro user', async () => {
      const user = await inZone(ZONE, 'pro');
      await backdated(user, 10, monthStartIn(ZONE, '30 minutes'));
      const more = Array.from({ length: 5 }, (_, i) => newEvent(`Pro ${i}`));
      expect((await push(db, user, ...more)).every((r) => r.status === 'applied')).toBe(true);
      expect(await count(db, 'calendar_events', 'owner_id = $1 and deleted_at is null', [user.id])).toBe(15);
    });
  });

  describe('the series cap', () => {
    it('refuses a series.replace of 1,001 occurrences whole: the old series stays, nothing new is saved', async () => {
      const user = await createUser(db, { tier: 'pro' });
      const old = seriesArgs(3);
      expect((await push(db, user, mutation('series.create', old)))[0]).toMatchObject({ status: 'applied' });
      const before = await rowsOf(user);
      const replacement = seriesArgs(1001, 'New');
      const [refused] = await push(
        db,
        user,
        mutation('series.replace', { ...replacement, old_series_id: old.series_id }),
      );
      expect(refused).toMatchObject({ status: 'rejected', code: 'invalid', message: CAP });
      expect(await rowsOf(user)).toBe(before);
      expect(await count(db, 'calendar_events', 'series_id = $1 and deleted_at is null', [old.series_id])).toBe(3);
    });

    it('refuses the 1,001st occurrence added to a full series by a direct insert', async () => {
      const user = await createUser(db, { tier: 'pro' });
      const full = seriesArgs(1000);
      expect((await push(db, user, mutation('series.create', full)))[0]).toMatchObject({ status: 'applied' });
      const insert = `insert into public.calendar_events (title, starts_at, series_id, recurrence_rule)
                      values ('One more', now(), $1, 'daily') returning id`;
      expect(await outcome(db, user, insert, [full.series_id])).toBe('error 22023');
      expect(await count(db, 'calendar_events', 'series_id = $1', [full.series_id])).toBe(1000);
    });

    it("refuses a Free user's series with nothing of it saved", async () => {
      const user = await createUser(db);
      const args = seriesArgs(2);
      const [refused] = await push(db, user, mutation('series.create', args));
      expect(refused).toMatchObject({ status: 'rejected', code: 'limit_reached', message: RECURRING });
      expect(await count(db, 'calendar_events', 'owner_id = $1', [user.id])).toBe(0);
    });
  });

  describe("another user's events", () => {
    let owner: User;
    let other: User;
    let single: string;
    let task: string;
    let series: ReturnType<typeof seriesArgs>;

    beforeAll(async () => {
      owner = await createUser(db, { tier: 'pro' });
      other = await createUser(db, { tier: 'pro' });
      const event = newEvent('Mine');
      const todo = newEvent('My task', true);
      series = seriesArgs(3, 'My series');
      const results = await push(db, owner, event, todo, mutation('series.create', series));
      expect(results.map((r) => r.status)).toEqual(['applied', 'applied', 'applied']);
      single = event.args.id as string;
      task = todo.args.id as string;
    });

    it('refuses update, complete, detach, delete, series.delete and series.replace through sync_push', async () => {
      const before = await rowsOf(owner);
      const occurrence = series.occurrences[0]!.id;
      const attempts = [
        mutation('event.update', { id: single, title: 'Hijacked', starts_at: '2031-03-01T10:00:00Z' }),
        mutation('event.update', { id: occurrence, title: 'Hijacked' }),
        mutation('task.set_completed', { id: task, value: true }),
        mutation('occurrence.detach', { id: occurrence, title: 'Hijacked' }),
        mutation('event.delete', { id: single }),
        mutation('event.delete', { id: occurrence }),
        mutation('series.delete', { series_id: series.series_id }),
        mutation('series.replace', { ...seriesArgs(1, 'Hijacked'), old_series_id: series.series_id }),
      ];
      const results = await push(db, other, ...attempts);
      expect(results.map((r) => [r.status, r.code])).toEqual(attempts.map(() => ['rejected', 'not_found']));
      // The answer shows nothing of the owner's rows.
      for (const result of results) expect(result.rows.calendar_events ?? []).toEqual([]);
      expect(await rowsOf(owner)).toBe(before);
      expect(await count(db, 'calendar_events', 'owner_id = $1', [other.id])).toBe(0);
    });

    it("changes nothing through direct table writes under the other user's role", async () => {
      const before = await rowsOf(owner);
      const writes: [string, unknown[]][] = [
        ["update public.calendar_events set title = 'Hijacked' where id = $1 returning id", [single]],
        ['update public.calendar_events set deleted_at = now() where id = $1 returning id', [single]],
        ['update public.calendar_events set is_completed = true where id = $1 returning id', [task]],
        [
          "update public.calendar_events set series_id = null, recurrence_rule = 'none' where id = $1 returning id",
          [series.occurrences[0]!.id],
        ],
        ['update public.calendar_events set deleted_at = now() where series_id = $1 returning id', [series.series_id]],
        ['delete from public.calendar_events where series_id = $1 returning id', [series.series_id]],
        ['update public.calendar_events set title = title returning id', []],
        ['delete from public.calendar_events where owner_id = $1 returning id', [owner.id]],
      ];
      for (const [text, params] of writes) expect(await outcome(db, other, text, params), text).toBe(0);
      // An upsert onto the owner's id (PostgREST's POST with Prefer: resolution=merge-duplicates).
      const upsert = `insert into public.calendar_events (id, title, starts_at) values ($1, 'Hijacked', now())
                      on conflict (id) do update set title = excluded.title returning id`;
      expect(await outcome(db, other, upsert, [single])).toBe('error 42501');
      // Actually committed, not rolled back: still nothing changes.
      await as(db, other, (sql) =>
        sql.query('update public.calendar_events set title = $2 where id = $1 or series_id = $3', [
          single,
          'Hijacked',
          series.series_id,
        ]),
      );
      expect(await rowsOf(owner)).toBe(before);
    });
  });
  describe('switching between task and event (event.update is_task)', () => {
    it('turns a task into an event (clearing its priority) and back; never inside a series', async () => {
      const user = await createUser(db, { tier: 'pro' });
      const id = uuid();
      await push(
        db,
        user,
        mutation('event.create', {
          id,
          title: 'T',
          starts_at: '2031-02-01T10:00:00Z',
          ends_at: '2031-02-01T10:00:00Z',
          is_task: true,
          priority: 'high',
        }),
      );
      const [toEvent] = await push(
        db,
        user,
        mutation('event.update', { id, is_task: false, ends_at: '2031-02-01T11:00:00Z' }),
      );
      expect(toEvent?.status).toBe('applied');
      const read = async () =>
        (
          await db.query<{ is_task: boolean; priority: string | null }>(
            'select is_task, priority from public.calendar_events where id = $1',
            [id],
          )
        ).rows[0];
      expect(await read()).toEqual({ is_task: false, priority: null });
      await push(db, user, mutation('event.update', { id, is_task: true, priority: 'low' }));
      expect(await read()).toEqual({ is_task: true, priority: 'low' });

      const series = seriesArgs(2);
      await push(db, user, mutation('series.create', series));
      const [refused] = await push(
        db,
        user,
        mutation('event.update', { id: series.occurrences[0]!.id, is_task: true }),
      );
      expect(refused).toMatchObject({
        status: 'rejected',
        message: 'An event in a recurring series cannot become a task.',
      });
      expect(await count(db, 'calendar_events', 'series_id = $1 and is_task', [series.series_id])).toBe(0);
    });
  });

  it("records the signing-up device's time zone when the server knows it, else UTC", async () => {
    const zoneOf = async (metadata: Record<string, unknown>) => {
      const id = uuid();
      await db.query(
        `insert into auth.users (id, email, encrypted_password, raw_user_meta_data)
         values ($1, $2, 'x', $3::jsonb)`,
        [id, `tz-${id.slice(0, 8)}@example.com`, JSON.stringify(metadata)],
      );
      return (await db.query<{ time_zone: string }>('select time_zone from public.user_profiles where id = $1', [id]))
        .rows[0]?.time_zone;
    };
    expect(await zoneOf({ time_zone: 'Europe/Berlin' })).toBe('Europe/Berlin');
    expect(await zoneOf({ time_zone: 'Mars/Olympus_Mons' })).toBe('UTC');
    expect(await zoneOf({ time_zone: 42 })).toBe('UTC');
    expect(await zoneOf({})).toBe('UTC');
  });
});
