import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { as, createUser, dbKinds, freshDb } from '../support/db.ts';
import { count, makeDirectory, mutation, push, pushRaw, uuid, type MutationResult } from './sync.ts';

/** Consecutive link.create mutations go as one insert (private.sync_push_link_run); answers as one at a time. */
describe.each(dbKinds)('sync_push: a run of new links (%s)', (kind) => {
  let db: Db;
  beforeAll(async () => {
    db = await freshDb(kind);
  });
  afterAll(() => db.close());

  const links = (directoryId: string, n: number, prefix = 'run') =>
    Array.from({ length: n }, (_, i) =>
      mutation('link.create', {
        id: uuid(),
        directory_id: directoryId,
        url: `https://${prefix}.example/${i}`,
        title: `${prefix} ${i}`,
        tags: ['a'],
      }),
    );

  /** The run function itself, as `actor`: its answers, or null when the run must go one at a time. */
  const runAs = async (actor: { id: string; email: string }, items: unknown[]) =>
    (
      await as(db, actor, (sql) =>
        sql.query<{ r: MutationResult[] | null }>('select private.sync_push_link_run($1::jsonb) as r', [
          JSON.stringify(items),
        ]),
      )
    ).rows[0]!.r;

  it('answers a run of new links in order, each as one at a time would: its canonical row, nothing deleted', async () => {
    const user = await createUser(db, { tier: 'pro' });
    const dir = await makeDirectory(db, user);
    const run = links(dir.id, 20);
    const answers = await runAs(user, run);
    expect(answers).toHaveLength(20);
    answers!.forEach((answer, i) => {
      expect(Object.keys(answer).sort()).toEqual(['deleted', 'id', 'rows', 'status']);
      expect(answer).toMatchObject({ id: run[i]!.id, status: 'applied', deleted: { saved_links: [] } });
      expect(answer.rows.saved_links).toHaveLength(1);
      expect(answer.rows.saved_links![0]).toMatchObject({
        id: run[i]!.args.id,
        title: `run ${i}`,
        owner_id: user.id,
        created_by: user.id,
        tags: ['a'],
      });
    });
    // Recorded: a replay of the push answers the same and writes nothing.
    expect(await count(db, 'sync_mutations', 'user_id = $1', [user.id])).toBe(20);
    const replay = await pushRaw(db, user, run);
    expect(replay).toEqual(answers);
    expect(await count(db, 'saved_links', 'directory_id = $1', [dir.id])).toBe(20);

    // The same links one at a time (a push each) answer with the same shape.
    const dir2 = await makeDirectory(db, user, 'One by one');
    const single = links(dir2.id, 1)[0]!;
    const [alone] = await push(db, user, single);
    expect(Object.keys(alone!).sort()).toEqual(['deleted', 'id', 'rows', 'status']);
    expect(Object.keys(alone!.rows.saved_links![0]!).sort()).toEqual(
      Object.keys(answers![0]!.rows.saved_links![0]!).sort(),
    );
  });

  it('answers null and leaves nothing written for a run with a refusal, a replay or an id twice', async () => {
    const user = await createUser(db, { tier: 'pro' });
    const dir = await makeDirectory(db, user);
    const bad = links(dir.id, 5, 'bad');
    bad[2] = mutation('link.create', { id: uuid(), directory_id: dir.id, url: 'ftp://x.example', title: 'x' });
    expect(await runAs(user, bad)).toBeNull();
    const twice = links(dir.id, 3, 'twice');
    twice[2] = { ...twice[2]!, id: twice[0]!.id };
    expect(await runAs(user, twice)).toBeNull();
    expect(await count(db, 'saved_links', 'directory_id = $1', [dir.id])).toBe(0);
    expect(await count(db, 'sync_mutations', 'user_id = $1', [user.id])).toBe(0);
    const once = links(dir.id, 3, 'once');
    await push(db, user, once[1]!);
    expect(await runAs(user, once)).toBeNull();
    expect(await count(db, 'saved_links', 'directory_id = $1', [dir.id])).toBe(1);
  });

  it('a push whose run cannot go whole answers each mutation as before: the others applied, the refused one rejected', async () => {
    const user = await createUser(db, { tier: 'free' });
    const dir = await makeDirectory(db, user);
    // Free: 30 links. The run of 32 goes one at a time: 30 applied, then 2 refused, in order.
    const run = links(dir.id, 32).map((m) => ({ ...m, args: { ...m.args, tags: [] } }));
    const results = await pushRaw(db, user, run);
    expect(results.map((r) => r.status)).toEqual([...Array(30).fill('applied'), 'rejected', 'rejected']);
    expect(results[31]).toMatchObject({
      id: run[31]!.id,
      code: 'limit_reached',
      message: 'Upgrade to Pro to save more links.',
    });
    expect(await count(db, 'saved_links', 'directory_id = $1 and deleted_at is null', [dir.id])).toBe(30);
    // Someone else's directory: every link of the run refused, nothing written.
    const other = await createUser(db, { tier: 'pro' });
    const theirs = await makeDirectory(db, other);
    const refused = await pushRaw(db, user, links(theirs.id, 3, 'theirs'));
    expect(refused.map((r) => r.code)).toEqual(['forbidden', 'forbidden', 'forbidden']);
    expect(await count(db, 'saved_links', 'directory_id = $1', [theirs.id])).toBe(0);
  });

  it('keeps the order of a mixed push: a run, another mutation, a run', async () => {
    const user = await createUser(db, { tier: 'pro' });
    const dir = await makeDirectory(db, user);
    const first = links(dir.id, 3, 'first');
    const update = mutation('link.update', { id: first[0]!.args.id, title: 'Renamed' });
    const second = links(dir.id, 2, 'second');
    const results = await pushRaw(db, user, [...first, update, ...second]);
    expect(results.map((r) => r.id)).toEqual([...first, update, ...second].map((m) => m.id));
    expect(results.every((r) => r.status === 'applied')).toBe(true);
    expect(results[3]!.rows.saved_links![0]).toMatchObject({ id: first[0]!.args.id, title: 'Renamed' });
  });
});
