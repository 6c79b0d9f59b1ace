import { beforeEach, describe, expect, it } from 'vitest';
import { mutate } from '../../src/data/mutate.ts';
import { MutationError } from '../../src/data/mutation-error.ts';
import type { LinkboardDb } from '../../src/data/db.ts';
import { ctx, freshDb, snapshot } from './helpers.ts';
import { ME, OTHER, makeDirectory, makeEvent, makeLink, makeMember, makePoll, uuid } from '../support/builders.ts';

let db: LinkboardDb;
beforeEach(() => {
  db = freshDb();
});

describe('free plan limits (docs/product.md, Roles and permissions; Plans and limits; docs/product.md, Plans and limits)', () => {
  it('refuses the 31st link with the product wording and writes nothing', async () => {
    const dir = makeDirectory();
    await db.link_directories.put(dir);
    await db.saved_links.bulkPut(Array.from({ length: 30 }, () => makeLink({ directory_id: dir.id })));
    const before = await snapshot(db);
    const attempt = mutate(
      db,
      'link.create',
      { id: uuid(), directory_id: dir.id, url: 'example.org', title: 'x' },
      ctx(),
    );
    await expect(attempt).rejects.toBeInstanceOf(MutationError);
    await expect(attempt).rejects.toMatchObject({
      code: 'limit_reached',
      message: 'Upgrade to Pro to save more links.',
    });
    expect(await snapshot(db)).toEqual(before);
  });

  it('counts links in a shared directory against the directory owner', async () => {
    const mine = makeDirectory();
    const shared = makeDirectory({ owner_id: OTHER });
    await db.link_directories.bulkPut([mine, shared]);
    // 30 links I own, some living in... my directory; links of the other owner do not count for me.
    await db.saved_links.bulkPut(Array.from({ length: 29 }, () => makeLink({ directory_id: mine.id })));
    await db.saved_links.bulkPut(
      Array.from({ length: 5 }, () => makeLink({ directory_id: shared.id, owner_id: OTHER })),
    );
    await mutate(db, 'link.create', { id: uuid(), directory_id: mine.id, url: 'https://a.test', title: '30th' }, ctx());
    await expect(
      mutate(db, 'link.create', { id: uuid(), directory_id: mine.id, url: 'https://b.test', title: '31st' }, ctx()),
    ).rejects.toThrow('Upgrade to Pro to save more links.');
  });

  it('lets Pro save a 31st link', async () => {
    const dir = makeDirectory();
    await db.link_directories.put(dir);
    await db.saved_links.bulkPut(Array.from({ length: 30 }, () => makeLink({ directory_id: dir.id })));
    await mutate(
      db,
      'link.create',
      { id: uuid(), directory_id: dir.id, url: 'https://a.test', title: 'x' },
      ctx({ tier: 'pro' }),
    );
    expect(await db.saved_links.count()).toBe(31);
  });

  it('refuses a second owned directory on Free, not on Pro', async () => {
    await mutate(db, 'directory.create', { id: uuid(), name: 'One' }, ctx());
    await expect(mutate(db, 'directory.create', { id: uuid(), name: 'Two' }, ctx())).rejects.toMatchObject({
      code: 'limit_reached',
      message: 'Upgrade to Pro to create more directories.',
    });
    await mutate(db, 'directory.create', { id: uuid(), name: 'Two' }, ctx({ tier: 'pro' }));
    expect(await db.link_directories.count()).toBe(2);
  });

  it('a directory shared with me does not count as owned', async () => {
    await db.link_directories.put(makeDirectory({ owner_id: OTHER }));
    await mutate(db, 'directory.create', { id: uuid(), name: 'Mine' }, ctx());
  });

  it('refuses an editor invite on Free, allows a viewer', async () => {
    const dir = makeDirectory();
    await db.link_directories.put(dir);
    await expect(
      mutate(db, 'member.invite', { id: uuid(), directory_id: dir.id, user_email: 'a@b.c', role: 'editor' }, ctx()),
    ).rejects.toMatchObject({ code: 'limit_reached', message: 'Upgrade to Pro to assign the Editor role.' });
    await mutate(
      db,
      'member.invite',
      { id: uuid(), directory_id: dir.id, user_email: 'A@B.c ', role: 'viewer' },
      ctx(),
    );
    expect((await db.directory_members.toArray())[0]).toMatchObject({ user_email: 'a@b.c', role: 'viewer' });
  });

  it('refuses promoting a member to editor on Free', async () => {
    const dir = makeDirectory();
    const member = makeMember({ directory_id: dir.id });
    await db.link_directories.put(dir);
    await db.directory_members.put(member);
    await expect(mutate(db, 'member.set_role', { id: member.id, role: 'editor' }, ctx())).rejects.toThrow(
      'Upgrade to Pro to assign the Editor role.',
    );
    await mutate(db, 'member.set_role', { id: member.id, role: 'editor' }, ctx({ tier: 'team' }));
    expect((await db.directory_members.get(member.id))?.role).toBe('editor');
  });

  it('counts 10 events per calendar month in the user time zone; tasks do not count', async () => {
    // 10 events created this month in Tokyo (which began 2026-02-28T15:00Z).
    await db.calendar_events.bulkPut(
      Array.from({ length: 10 }, (_, i) => makeEvent({ created_at: `2026-02-28T15:0${i}:00.000Z` })),
    );
    const event = { title: 'E', starts_at: '2026-03-20T10:00:00Z', ends_at: '2026-03-20T11:00:00Z', is_task: false };
    await expect(
      mutate(db, 'event.create', { id: uuid(), ...event }, ctx({ timeZone: 'Asia/Tokyo' })),
    ).rejects.toMatchObject({
      message: 'Upgrade to Pro to create more than 10 events per month.',
    });
    // In UTC those 10 were created last month.
    await mutate(db, 'event.create', { id: uuid(), ...event }, ctx({ timeZone: 'UTC' }));
    await mutate(
      db,
      'event.create',
      { id: uuid(), ...event, is_task: true, starts_at: null, ends_at: null },
      ctx({ timeZone: 'Asia/Tokyo' }),
    );
  });

  it('counts 5 polls per month', async () => {
    await db.voting_posts.bulkPut(Array.from({ length: 5 }, () => makePoll({ created_by_id: ME })));
    await expect(mutate(db, 'poll.create', { id: uuid(), title: 'P', options: ['a', 'b'] }, ctx())).rejects.toThrow(
      'Upgrade to Pro to create more than 5 voting posts per month.',
    );
    await mutate(db, 'poll.create', { id: uuid(), title: 'P', options: ['a', 'b'] }, ctx({ tier: 'pro' }));
  });

  it('refuses tags, favourites and recurrence on Free', async () => {
    const dir = makeDirectory();
    const link = makeLink({ directory_id: dir.id });
    await db.link_directories.put(dir);
    await db.saved_links.put(link);
    await expect(
      mutate(db, 'link.create', { id: uuid(), directory_id: dir.id, url: 'a.test', title: 't', tags: ['x'] }, ctx()),
    ).rejects.toThrow('Upgrade to Pro to use tags.');
    await expect(mutate(db, 'link.update', { id: link.id, tags: ['x'] }, ctx())).rejects.toThrow(
      'Upgrade to Pro to use tags.',
    );
    await expect(mutate(db, 'link.set_favorite', { id: link.id, value: true }, ctx())).rejects.toThrow(
      'Upgrade to Pro to use favourites.',
    );
    const occurrence = {
      id: uuid(),
      title: 'R',
      description: null,
      starts_at: '2026-03-16T09:00:00Z',
      ends_at: '2026-03-16T10:00:00Z',
    };
    await expect(
      mutate(
        db,
        'series.create',
        { series_id: uuid(), rule: 'daily', until: '2026-03-20T00:00:00Z', occurrences: [occurrence] },
        ctx(),
      ),
    ).rejects.toThrow('Recurring events are a Pro feature.');
  });
});
