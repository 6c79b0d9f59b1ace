/**
 * The Free poll and event quotas cannot be bypassed by un-deleting a poll or
 * reset by moving the profile's time zone; a poll's deadline cannot be in the past; a team poll
 * follows the directory owner's plan.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { as, createUser, dbKinds, freshDb, insertRow, outcome, sqlError, type Actor } from '../support/db.ts';

type Row = { id: string };
type User = Required<Pick<Actor, 'id' | 'email'>>;

const options = JSON.stringify([{ text: 'A' }, { text: 'B' }]);
const pollInsert = `insert into public.voting_posts (title, options, directory_id, deadline)
                    values ('P', '${options}', $1, $2) returning id`;
const eventInsert = "insert into public.calendar_events (title, starts_at) values ('E', now()) returning id";
const pollLimit = {
  code: 'P0001',
  message: 'Upgrade to Pro to create more than 5 voting posts per month.',
  hint: 'limit_reached',
};
const eventLimit = {
  code: 'P0001',
  message: 'Upgrade to Pro to create more than 10 events per month.',
  hint: 'limit_reached',
};

// UTC+14 and UTC-12: 26 hours apart, so an instant just before the month starts in UTC-12 is
// already the 2nd of that month in UTC+14.
const AHEAD = 'Pacific/Kiritimati';
const BEHIND = 'Etc/GMT+12';
const justBeforeMonthBehind = `(date_trunc('month', now() at time zone '${BEHIND}') at time zone '${BEHIND}') - interval '1 minute'`;

describe.each(dbKinds)('poll and event quotas (%s)', (kind) => {
  let db: Db;

  beforeAll(async () => {
    db = await freshDb(kind);
  });
  afterAll(() => db.close());

  const createPoll = (user: User, dir: string | null = null, deadline: string | null = null) =>
    as(db, user, async (sql) => (await sql.query<Row>(pollInsert, [dir, deadline])).rows[0]!);
  const setZone = (user: User, zone: string) =>
    db.query('update public.user_profiles set time_zone = $2 where id = $1', [user.id, zone]);

  it('Free: un-deleting a poll through an UPDATE is checked against the quota', async () => {
    const user = await createUser(db);
    const polls: Row[] = [];
    for (let i = 0; i < 5; i++) polls.push(await createPoll(user));
    const remove = 'update public.voting_posts set deleted_at = now() where id = $1';
    await as(db, user, (sql) => sql.query(remove, [polls[0]!.id]));
    await createPoll(user);
    const restore = 'update public.voting_posts set deleted_at = null where id = $1 returning id';
    expect(await sqlError(as(db, user, (sql) => sql.query(restore, [polls[0]!.id])))).toEqual(pollLimit);
    // Below the quota, or on Pro, it comes back.
    await as(db, user, (sql) => sql.query(remove, [polls[1]!.id]));
    expect(await outcome(db, user, restore, [polls[0]!.id])).toBe(1);
    const pro = await createUser(db, { tier: 'pro' });
    const poll = await createPoll(pro);
    await as(db, pro, (sql) => sql.query(remove, [poll.id]));
    expect(await outcome(db, pro, restore, [poll.id])).toBe(1);
    // Other edits of a deleted or live poll stay free of the check.
    expect(
      await outcome(db, user, "update public.voting_posts set title = 'T' where id = $1 returning id", [polls[2]!.id]),
    ).toBe(1);
  });

  it('refuses a poll whose deadline has passed; a future deadline is fine', async () => {
    const user = await createUser(db, { tier: 'pro' });
    const past = new Date(Date.now() - 60_000).toISOString();
    expect(await sqlError(createPoll(user, null, past))).toEqual({
      code: '22023',
      message: 'The deadline cannot be earlier than now.',
      hint: 'invalid',
    });
    expect(await outcome(db, user, pollInsert, [null, new Date(Date.now() + 60_000).toISOString()])).toBe(1);
  });

  it("a team poll follows the directory owner's plan, and does not use the creator's Free quota", async () => {
    const teamOwner = await createUser(db, { tier: 'team' });
    const proOwner = await createUser(db, { tier: 'pro' });
    const member = await createUser(db);
    const teamMember = await createUser(db, { tier: 'team' });
    const teamDir = await insertRow<Row>(db, 'link_directories', { name: 'T', owner_id: teamOwner.id });
    const proDir = await insertRow<Row>(db, 'link_directories', { name: 'P', owner_id: proOwner.id });
    for (const dir of [teamDir, proDir]) {
      for (const who of [member, teamMember]) {
        await insertRow(db, 'directory_members', { directory_id: dir.id, user_email: who.email });
      }
    }
    for (let i = 0; i < 5; i++) await createPoll(member);
    expect(await outcome(db, member, pollInsert, [teamDir.id, null])).toBe(1);
    expect(await outcome(db, teamMember, pollInsert, [teamDir.id, null])).toBe(1);
    const exclusive = {
      code: 'P0001',
      message: 'Shared team voting boards are exclusive to the Team plan.',
      hint: 'limit_reached',
    };
    expect(await sqlError(createPoll(teamMember, proDir.id))).toEqual(exclusive);
    expect(await sqlError(createPoll(proOwner, proDir.id))).toEqual(exclusive);
    expect(await sqlError(createPoll(member))).toEqual(pollLimit);
  });

  it('Free: moving the time zone near a month end does not reset the event quota', async () => {
    const user = await createUser(db);
    await setZone(user, AHEAD);
    // Ten events created at an instant that is this month in UTC+14 (where the user was) ...
    await db.query(
      `insert into public.calendar_events (title, starts_at, owner_id, created_at)
       select 'E', now(), $1, ${justBeforeMonthBehind} from generate_series(1, 10)`,
      [user.id],
    );
    // ... and still the previous month in UTC-12, where the user moves next.
    await setZone(user, BEHIND);
    expect(await sqlError(as(db, user, (sql) => sql.query(eventInsert)))).toEqual(eventLimit);
    // The month each row counts in was recorded at insert, and a client cannot change it.
    await as(db, user, (sql) =>
      sql.query("update public.calendar_events set quota_month = '2000-01-01' where owner_id = $1", [user.id]),
    );
    const { rows } = await db.query<{ months: string }>(
      `select count(distinct quota_month)::text || ' ' || bool_and(quota_month = (date_trunc('month', now() at time zone '${BEHIND}'))::date)::text as months
       from public.calendar_events where owner_id = $1`,
      [user.id],
    );
    expect(rows[0]?.months).toBe('1 true');
  });

  it('Free: moving the time zone near a month end does not reset the poll quota', async () => {
    const user = await createUser(db);
    await setZone(user, AHEAD);
    await db.query(
      `insert into public.voting_posts (title, options, created_by_id, created_at)
       select 'P', $2, $1, ${justBeforeMonthBehind} from generate_series(1, 5)`,
      [user.id, options],
    );
    await setZone(user, BEHIND);
    expect(await sqlError(createPoll(user))).toEqual(pollLimit);
  });
});
