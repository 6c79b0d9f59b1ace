/**
 * Every text a client stores has a maximum length, enforced by the database
 * with a readable message (22001, hint invalid), which sync_push answers as an `invalid`
 * rejection carrying that message rather than a generic one or a 500.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { as, createUser, dbKinds, freshDb, insertRow, sqlError, type Actor } from '../support/db.ts';

type Row = { id: string };
type User = Required<Pick<Actor, 'id' | 'email'>>;

interface Result {
  status: string;
  code?: string;
  message?: string;
}

const tooLong = (message: string) => ({ code: '22001', message, hint: 'invalid' });

describe.each(dbKinds)('maximum lengths (%s)', (kind) => {
  let db: Db;
  let user: User;
  let dir: Row;

  beforeAll(async () => {
    db = await freshDb(kind);
    user = await createUser(db, { tier: 'team' });
    dir = await insertRow<Row>(db, 'link_directories', { name: 'Mine', owner_id: user.id });
  });
  afterAll(() => db.close());

  const push = (name: string, args: Record<string, unknown>) =>
    as(db, user, async (sql) => {
      const { rows } = await sql.query<{ answer: { results: Result[] } }>('select public.sync_push($1) as answer', [
        JSON.stringify([{ id: randomUUID(), name, args }]),
      ]);
      return rows[0]!.answer.results[0]!;
    });
  const rejected = (message: string) => ({ status: 'rejected', code: 'invalid', message });
  const insert = (table: string, row: Record<string, unknown>) =>
    as(db, user, (sql) => {
      const keys = Object.keys(row);
      return sql.query(
        `insert into public.${table} (${keys.join(', ')}) values (${keys.map((_, i) => `$${i + 1}`).join(', ')})`,
        Object.values(row),
      );
    });

  it('answers an over-long text pushed through sync_push with an invalid rejection and a readable message', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['profile.update', { full_name: 'n'.repeat(201) }, 'The name can be at most 200 characters.'],
      ['profile.update', { bio: 'b'.repeat(501) }, 'The bio can be at most 500 characters.'],
      ['profile.update', { username: 'u'.repeat(31) }, 'A username can be at most 30 characters.'],
      ['profile.update', { time_zone: 'Z'.repeat(65) }, 'Unknown time zone.'],
      [
        'directory.create',
        { id: randomUUID(), name: 'd'.repeat(101) },
        'The directory name can be at most 100 characters.',
      ],
      [
        'directory.update',
        { id: dir.id, description: 'd'.repeat(1001) },
        'The description can be at most 1000 characters.',
      ],
      [
        'link.create',
        { id: randomUUID(), directory_id: dir.id, url: `https://x.example/${'p'.repeat(2040)}`, title: 'T' },
        'The URL can be at most 2048 characters.',
      ],
      [
        'link.create',
        { id: randomUUID(), directory_id: dir.id, url: 'https://x.example', title: 't'.repeat(501) },
        'The title can be at most 500 characters.',
      ],
      [
        'link.create',
        { id: randomUUID(), directory_id: dir.id, url: 'https://x.example', title: 'T', notes: 'n'.repeat(10001) },
        'The notes can be at most 10000 characters.',
      ],
      [
        'link.create',
        { id: randomUUID(), directory_id: dir.id, url: 'https://x.example', title: 'T', description: 'd'.repeat(2001) },
        'The description can be at most 2000 characters.',
      ],
      [
        'link.create',
        {
          id: randomUUID(),
          directory_id: dir.id,
          url: 'https://x.example',
          title: 'T',
          tags: Array.from({ length: 51 }, (_, i) => `t${i}`),
        },
        'A link can have at most 50 tags.',
      ],
      [
        'link.create',
        { id: randomUUID(), directory_id: dir.id, url: 'https://x.example', title: 'T', tags: ['t'.repeat(51)] },
        'Tags can be at most 50 characters.',
      ],
      [
        'member.invite',
        { id: randomUUID(), directory_id: dir.id, user_email: `${'m'.repeat(320)}@example.com`, role: 'viewer' },
        'The e-mail address can be at most 320 characters.',
      ],
      [
        'event.create',
        { id: randomUUID(), title: 'e'.repeat(501), starts_at: new Date().toISOString() },
        'The title can be at most 500 characters.',
      ],
      [
        'event.create',
        { id: randomUUID(), title: 'E', description: 'd'.repeat(5001), starts_at: new Date().toISOString() },
        'The description can be at most 5000 characters.',
      ],
      [
        'poll.create',
        { id: randomUUID(), title: 'p'.repeat(501), options: ['a', 'b'] },
        'The title can be at most 500 characters.',
      ],
      [
        'poll.create',
        { id: randomUUID(), title: 'P', description: 'd'.repeat(5001), options: ['a', 'b'] },
        'The description can be at most 5000 characters.',
      ],
      [
        'poll.create',
        { id: randomUUID(), title: 'P', options: ['a', 'o'.repeat(201)] },
        'An option can be at most 200 characters.',
      ],
    ];
    for (const [name, args, message] of cases) {
      expect(await push(name, args), `${name} ${message}`).toMatchObject(rejected(message));
    }
  });

  it('takes values at their maximum', async () => {
    expect(await push('profile.update', { full_name: 'n'.repeat(200), bio: 'b'.repeat(500) })).toMatchObject({
      status: 'applied',
    });
    const link = {
      id: randomUUID(),
      directory_id: dir.id,
      url: `https://x.example/${'p'.repeat(2048 - 'https://x.example/'.length)}`,
      title: 't'.repeat(500),
      notes: 'n'.repeat(10000),
      description: 'd'.repeat(2000),
      tags: Array.from({ length: 50 }, (_, i) => `${i}`.padEnd(50, 'x')),
    };
    expect(await push('link.create', link)).toMatchObject({ status: 'applied' });
    const poll = { id: randomUUID(), title: 'p'.repeat(500), options: ['a'.repeat(200), 'b'] };
    expect(await push('poll.create', poll)).toMatchObject({ status: 'applied' });
  });

  it('holds the same limits for any write, not only sync_push', async () => {
    expect(await sqlError(insert('link_directories', { name: 'd'.repeat(101) }))).toEqual(
      tooLong('The directory name can be at most 100 characters.'),
    );
    expect(
      await sqlError(insert('calendar_events', { title: 'E', description: 'd'.repeat(5001), starts_at: new Date() })),
    ).toEqual(tooLong('The description can be at most 5000 characters.'));
    // The item checks are constraints too, so they hold even past the rule triggers.
    const { rows } = await db.query<{ conname: string }>(
      `select conname from pg_constraint
       where conname in ('saved_links_tag_length', 'voting_posts_option_length') order by conname`,
    );
    expect(rows.map((row) => row.conname)).toEqual(['saved_links_tag_length', 'voting_posts_option_length']);
  });
});
