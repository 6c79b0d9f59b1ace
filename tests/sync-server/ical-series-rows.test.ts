/**
 * The .ics export and the calendar feed of series as the server stores them: the dialog's
 * series.create pushed through sync_push, one occurrence deleted and one moved, the rows pulled
 * back with sync_pull (timestamps as the server returns them, e.g. '2026-12-31T22:59:00+00:00')
 * and read the way the feed reads them (public.calendar_feed), then exported and expanded by ical.js.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { checkRows } from '../../src/data/synced-tables.ts';
import type { CalendarRow } from '../../src/domain/ical/calendar-row.ts';
import { createUser, dbKinds, freshDb } from '../support/db.ts';
import { checkSeriesExport, edits, SERIES_CASES, seriesArgs } from '../domain/ical/real-series.ts';
import { mutation, pullAll, push } from './sync.ts';

describe.each(dbKinds)('the .ics of series stored by the server (%s)', (kind) => {
  let db: Db;
  beforeAll(async () => {
    db = await freshDb(kind);
  });
  afterAll(() => db.close());

  it.each(SERIES_CASES)('writes one RRULE for a series $name, pulled and in the feed', async (c) => {
    const user = await createUser(db, { tier: 'pro' });
    await db.query('update public.user_profiles set time_zone = $2 where id = $1', [user.id, c.zone]);
    const args = seriesArgs(c);
    const edit = edits(args);
    const results = await push(
      db,
      user,
      mutation('series.create', args),
      mutation('event.delete', edit.delete),
      mutation('occurrence.detach', edit.detach),
    );
    expect(results.map((result) => result.status)).toEqual(['applied', 'applied', 'applied']);

    const { pages } = await pullAll(db, user);
    const byId = new Map<unknown, Record<string, unknown>>();
    for (const page of pages) {
      for (const row of page.changes.calendar_events ?? []) byId.set(row.id, row);
    }
    const pulled: CalendarRow[] = checkRows(
      'calendar_events',
      [...byId.values()].filter((row) => !row.deleted_at),
    );
    const sample = pulled.find((row) => row.series_id === args.series_id)!;
    expect(sample.recurrence_end_date).toMatch(/T\d{2}:59:00\+00:00$/);
    checkSeriesExport(c, args, pulled);

    // The feed reads the same rows its own way (to_jsonb in public.calendar_feed).
    const token = `${args.series_id.replaceAll('-', '')}${'f'.repeat(11)}`;
    await db.query(
      `insert into private.calendar_feeds (user_id, token_hash) values ($1, sha256(convert_to($2, 'UTF8')))`,
      [user.id, token],
    );
    const { rows } = await db.query<{ feed: { time_zone: string; events: CalendarRow[] } }>(
      'select public.calendar_feed($1) as feed',
      [token],
    );
    expect(rows[0]!.feed.time_zone).toBe(c.zone);
    checkSeriesExport(c, args, rows[0]!.feed.events);
  });
});
