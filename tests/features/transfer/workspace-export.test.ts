import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LinkboardDb } from '../../../src/data/db.ts';
import { syncedTables, type SyncedTableName, type SyncedTableSpec } from '../../../src/data/synced-tables.ts';
import {
  buildWorkspaceExport,
  DAMAGED_EXPORT,
  NEWER_EXPORT,
  NOT_AN_EXPORT,
  parseWorkspaceExport,
  type WorkspaceExport,
} from '../../../src/features/transfer/workspace-export.ts';
import { freshDb, NOW } from '../../data/helpers.ts';
import { makeEvent, makeLink, ME } from '../../support/builders.ts';
import * as f from './export-fixture.ts';

let db: LinkboardDb;
let exp: WorkspaceExport;

beforeEach(async () => {
  db = await f.seededDb();
  exp = await buildWorkspaceExport(db, f.exportCtx());
});

afterEach(() => db.close());

describe('buildWorkspaceExport', () => {
  it('writes the header and the profile, with the account address', () => {
    expect(exp).toMatchObject({ format: 'linkboard-export', version: 1, exported_at: NOW.toISOString() });
    expect(exp.profile).toEqual({
      id: ME,
      email: f.EMAIL,
      full_name: 'Me Myself',
      username: 'me',
      bio: 'Hello',
      subscription_tier: 'pro',
      time_zone: f.ZONE,
      default_reminder_minutes: null,
      theme: 'system',
      billing_cycle: null,
      plan_period_end: null,
      plan_cancel_at_period_end: false,
    });
  });

  it('lists owned directories with their links (newest first), and shared ones read-only', () => {
    expect(exp.directories.map((dir) => [dir.name, dir.links.map((link) => link.title)])).toEqual([
      ['Reading & <Research>', ['Newer', 'Older, "quoted"']],
      ['Empty', []],
    ]);
    expect(exp.directories[0]?.links[1]).toEqual({
      id: f.older.id,
      url: f.older.url,
      title: f.older.title,
      notes: 'First line\nsecond line',
      description: null,
      tags: ['read', 'later'],
      is_favorite: true,
      created_by: ME,
      site_name: null,
      icon_url: null,
      image_url: null,
      preview_state: null,
      previewed_at: null,
      broken_at: null,
      created_at: f.older.created_at,
      updated_at: f.older.updated_at,
    });
    expect(exp.shared_directories.map(({ links, ...dir }) => ({ ...dir, links: links.map((l) => l.title) }))).toEqual([
      expect.objectContaining({ id: f.shared.id, name: 'Team', role: 'editor', read_only: true, links: ['Team doc'] }),
      expect.objectContaining({ id: f.sharedNoRole.id, role: null, read_only: true, links: [] }),
    ]);
    expect(exp.shared_directories[0]?.owner_id).toBe(f.shared.owner_id);
  });

  it('exports the own events and tasks with their series fields, dated first', () => {
    expect(exp.events.map((event) => event.title)).toEqual([
      'Weekly',
      'Meeting',
      'Pay rent',
      'Weekly',
      'Weekly',
      'Someday', // undated ones last, by id
      'No start',
    ]);
    expect(exp.events.find((event) => event.title === 'Pay rent')).toMatchObject({ is_task: true, priority: 'high' });
    expect(exp.events[0]).toMatchObject({
      series_id: f.series[0]?.series_id,
      recurrence_rule: 'weekly',
      recurrence_end_date: '2026-04-06T21:59:00.000Z',
    });
  });

  it('exports the polls the user created, the own votes with their option text, and the invitations', () => {
    expect(exp.polls).toEqual([
      expect.objectContaining({ id: f.myPoll.id, directory_id: f.own.id, is_active: true, options: f.myPoll.options }),
    ]);
    expect(exp.votes).toEqual([
      expect.objectContaining({
        poll_id: f.othersPoll.id,
        option_index: 1,
        option_text: 'Sushi',
        poll_title: 'Lunch?',
      }),
      expect.objectContaining({ poll_id: 'gone', option_index: 0, option_text: null, poll_title: null }),
    ]);
    expect(exp.members).toEqual([
      {
        id: f.invitation.id,
        directory_id: f.own.id,
        email: 'friend@example.com',
        role: 'editor',
        created_at: f.invitation.created_at,
      },
    ]);
  });

  it("exports the user's own answers to time polls, slot by slot, and the invitations of picked times", () => {
    expect(exp.answers).toEqual([
      {
        id: f.myAnswers.id,
        poll_id: f.timePoll.id,
        poll_title: 'Planning meeting',
        directory_id: null,
        answers: [
          { slot_id: 'slot-1', answer: 'maybe', start: '2026-03-16T09:00:00.000Z', minutes: 60, day: null },
          { slot_id: 'slot-2', answer: 'yes', start: '2026-03-17T14:00:00.000Z', minutes: 60, day: null },
          { slot_id: 'slot-3', answer: 'no', start: null, minutes: null, day: '2026-03-18' },
          { slot_id: 'gone', answer: 'yes', start: null, minutes: null, day: null },
        ],
        created_at: f.myAnswers.created_at,
        updated_at: f.myAnswers.updated_at,
      },
      expect.objectContaining({
        poll_id: 'gone',
        poll_title: null,
        answers: [expect.objectContaining({ slot_id: 'x' })],
      }),
    ]);
    expect(exp.invitations).toEqual([
      {
        id: f.myInvite.id,
        poll_id: f.timePoll.id,
        inviter_name: 'other',
        title: 'Planning meeting',
        description: null,
        starts_at: '2026-03-16T09:00:00.000Z',
        ends_at: '2026-03-16T10:00:00.000Z',
        all_day: false,
        status: 'accepted',
        event_id: f.meeting.id,
        created_at: f.myInvite.created_at,
        updated_at: f.myInvite.updated_at,
      },
    ]);
  });

  it('reads a file of an older app without answers or invitations as having none', () => {
    const { answers: _answers, invitations: _invitations, ...older } = exp;
    const parsed = parseWorkspaceExport(JSON.stringify(older));
    expect(parsed.ok && [parsed.value.answers, parsed.value.invitations]).toEqual([[], []]);
  });

  it('leaves out local-only fields and sync internals', () => {
    const json = JSON.stringify(exp);
    for (const name of ['txid', 'deleted_at', 'owner_tier', 'local_votes', 'pending-vote']) {
      expect(json).not.toContain(name);
    }
  });

  it('says for every column of a table whether the file carries it (a new column fails here)', () => {
    const columns = (table: SyncedTableName) => {
      const spec: SyncedTableSpec = syncedTables[table];
      const local = new Set([...(spec.notColumns ?? []), 'txid', 'deleted_at']);
      return Object.keys(spec.fields).filter((field) => !local.has(field));
    };
    const missing = (table: SyncedTableName, record: object, renamed: Record<string, string> = {}) =>
      columns(table).filter((column) => !((renamed[column] ?? column) in record));
    const [dir, link] = [exp.shared_directories[0], exp.directories[0]?.links[0]];
    expect(missing('user_profiles', exp.profile)).toEqual(['created_at', 'updated_at']);
    expect(missing('link_directories', dir ?? {})).toEqual([]);
    expect(missing('saved_links', link ?? {})).toEqual(['directory_id', 'owner_id']);
    expect(missing('calendar_events', exp.events[0] ?? {})).toEqual(['owner_id']);
    expect(missing('voting_posts', exp.polls[0] ?? {})).toEqual(['created_by', 'created_by_id']);
    const vote = exp.votes[0] ?? {};
    expect(missing('user_votes', vote, { post_id: 'poll_id' })).toEqual(['updated_at', 'user_email', 'user_id']);
    const member = exp.members[0] ?? {};
    expect(missing('directory_members', member, { user_email: 'email' })).toEqual(['updated_at', 'inviter_id']);
    const answers = exp.answers[0] ?? {};
    expect(missing('slot_answers', answers, { post_id: 'poll_id' })).toEqual(['user_id', 'voter_name']);
    const invitation = exp.invitations[0] ?? {};
    expect(missing('event_invitations', invitation, { post_id: 'poll_id' })).toEqual(['user_id']);
    // Every synced table is named above: a new table fails here until the file says whether it carries it.
    const named = ['user_profiles', 'link_directories', 'saved_links', 'calendar_events', 'voting_posts'];
    named.push('user_votes', 'directory_members', 'slot_answers', 'event_invitations');
    expect(Object.keys(syncedTables).sort()).toEqual(named.sort());
  });

  it('falls back to the context when the profile has not been pulled yet', async () => {
    const empty = freshDb();
    const bare = await buildWorkspaceExport(empty, f.exportCtx());
    expect(bare.profile).toEqual({
      id: ME,
      email: f.EMAIL,
      full_name: '',
      username: null,
      bio: '',
      subscription_tier: 'free',
      time_zone: f.ZONE,
      default_reminder_minutes: null,
      theme: 'system',
      billing_cycle: null,
      plan_period_end: null,
      plan_cancel_at_period_end: false,
    });
    expect(bare.directories).toEqual([]);
    empty.close();
  });

  it('reads one consistent snapshot while changes are being written', async () => {
    // Each writer transaction retitles a link and an event together; an export sees both or neither.
    const link = f.older.id;
    const event = f.meeting.id;
    const writes: Promise<unknown>[] = [];
    const exports: Promise<WorkspaceExport>[] = [];
    for (let i = 1; i <= 10; i++) {
      exports.push(buildWorkspaceExport(db, f.exportCtx()));
      writes.push(
        db.transaction('rw', db.saved_links, db.calendar_events, async () => {
          await db.saved_links.update(link, { title: `v${i}` });
          await db.saved_links.put(makeLink({ directory_id: f.own.id, title: `added ${i}` }));
          await db.calendar_events.update(event, { title: `v${i}` });
        }),
      );
    }
    const done = await Promise.all(exports);
    await Promise.all(writes);
    done.forEach((snapshot, index) => {
      const links = snapshot.directories[0]?.links ?? [];
      const linkTitle = links.find((l) => l.id === link)?.title;
      const eventTitle = snapshot.events.find((e) => e.id === event)?.title;
      // The export started before write i+1 began: it sees exactly the writes before it.
      expect([linkTitle, eventTitle, links.length]).toEqual(
        index === 0 ? ['Older, "quoted"', 'Meeting', 2] : [`v${index}`, `v${index}`, 2 + index],
      );
    });
  });

  it('reads 10,000 links with one bulk read per table', async () => {
    const big = freshDb();
    await big.link_directories.bulkPut([f.own]);
    await big.saved_links.bulkPut(
      Array.from({ length: 10_000 }, (_, i) => makeLink({ directory_id: f.own.id, title: `Link ${i}` })),
    );
    await big.calendar_events.bulkPut([makeEvent()]);
    const result = await buildWorkspaceExport(big, f.exportCtx());
    expect(result.directories[0]?.links).toHaveLength(10_000);
    big.close();
  });
});

describe('parseWorkspaceExport', () => {
  it('accepts its own output', () => {
    expect(parseWorkspaceExport(JSON.stringify(exp, null, 2))).toEqual({ ok: true, value: exp });
  });

  it('drops fields it does not know (a later version 1 writer may add some)', () => {
    const extended = { ...exp, theme: 'dark', profile: { ...exp.profile, avatar: 'x' } };
    expect(parseWorkspaceExport(JSON.stringify(extended))).toEqual({ ok: true, value: exp });
  });

  it('refuses garbage and other JSON as not an export', () => {
    for (const text of ['', 'not json', '<!DOCTYPE NETSCAPE-Bookmark-file-1>', '[]', 'null', '{"format":"other"}']) {
      expect(parseWorkspaceExport(text)).toEqual({ ok: false, error: NOT_AN_EXPORT });
    }
    expect(parseWorkspaceExport(JSON.stringify({ ...exp, format: undefined }))).toEqual({
      ok: false,
      error: NOT_AN_EXPORT,
    });
  });

  it('refuses a newer version, asking for an update', () => {
    const newer = JSON.stringify({ ...exp, version: 2, directories: 'changed shape' });
    expect(parseWorkspaceExport(newer)).toEqual({ ok: false, error: NEWER_EXPORT });
    expect(NEWER_EXPORT).toBe('This export was made by a newer version of Linkboard. Update the app to import it.');
  });

  it('refuses a damaged export, naming the field', () => {
    // Loosened so a field can be damaged on purpose (the parser's input is unknown text).
    const damaged = structuredClone(exp) as unknown as { directories: { links: { url: unknown }[] }[] };
    const first = damaged.directories[0]?.links[0];
    if (first) first.url = 42;
    const result = parseWorkspaceExport(JSON.stringify(damaged));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.startsWith(DAMAGED_EXPORT)).toBe(true);
      expect(result.error).toContain('directories.0.links.0.url');
    }
    expect(parseWorkspaceExport(JSON.stringify({ ...exp, version: 0 }))).toMatchObject({ ok: false });
  });
});
