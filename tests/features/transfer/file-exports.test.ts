// @vitest-environment jsdom
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseNetscapeBookmarks } from '../../../src/domain/bookmarks/netscape-parse.ts';
import { buildBookmarksHtml } from '../../../src/features/transfer/bookmarks-export.ts';
import { buildCalendarFile } from '../../../src/features/transfer/calendar-export.ts';
import { bookmarksSummary, calendarSummary, workspaceSummary } from '../../../src/features/transfer/export-summary.ts';
import { buildWorkspaceExport, type WorkspaceExport } from '../../../src/features/transfer/workspace-export.ts';
import { NOW } from '../../data/helpers.ts';
import { byUid, expandedStarts, instantOf, parseIcs } from '../../domain/ical/ics-helpers.ts';
import * as f from './export-fixture.ts';

let exp: WorkspaceExport;

// A machine zone none of the exported data uses: anything written in it instead of the user's zone shows.
const machineZone = process.env.TZ;
beforeAll(async () => {
  process.env.TZ = 'Asia/Kolkata';
  const db = await f.seededDb();
  exp = await buildWorkspaceExport(db, f.exportCtx());
  db.close();
});
afterAll(() => {
  process.env.TZ = machineZone;
});

describe('buildBookmarksHtml', () => {
  it('writes one folder per directory, shared ones under "Shared / ", and reads back unchanged', () => {
    const parsed = parseNetscapeBookmarks(buildBookmarksHtml(exp), new DOMParser());
    expect(parsed.skipped).toEqual([]);
    expect(parsed.folders).toEqual([
      {
        name: 'Reading & <Research>',
        links: [
          {
            url: 'https://example.com',
            title: 'Newer',
            createdAt: '2026-02-02T10:00:00.000Z',
            tags: [],
            description: null,
          },
          {
            url: 'https://example.com/a?x=1&y="2"',
            title: 'Older, "quoted"',
            createdAt: '2026-02-01T10:00:00.000Z',
            tags: ['read', 'later'],
            description: 'First line\nsecond line',
          },
        ],
      },
      { name: 'Empty', links: [] },
      {
        name: 'Shared / Team',
        links: [
          {
            url: 'https://team.example.com/',
            title: 'Team doc',
            createdAt: '2026-02-03T10:00:00.000Z',
            tags: [],
            description: 'From the team',
          },
        ],
      },
      { name: 'Shared / Side project', links: [] },
    ]);
  });

  it('says how many links and directories it wrote', () => {
    expect(bookmarksSummary(exp)).toBe('Exported 3 links in 4 directories.');
    const [dir] = exp.directories;
    const [link] = dir?.links ?? [];
    if (!dir || !link) throw new Error('fixture without links');
    const links = Array.from({ length: 1234 }, () => link);
    const many: WorkspaceExport = { ...exp, directories: [{ ...dir, links }], shared_directories: [] };
    expect(bookmarksSummary(many)).toBe('Exported 1,234 links in 1 directory.');
  });
});

describe('buildCalendarFile', () => {
  it('writes events as VEVENTs, the series as RRULE with EXDATE in the user zone, tasks as VTODOs', () => {
    const ics = buildCalendarFile(exp, f.ZONE);
    const { calendar, events, todos } = parseIcs(ics);
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Linkboard');

    const meeting = byUid(events, `${f.meeting.id}@linkboard`);
    expect(meeting.getFirstPropertyValue('summary')).toBe('Meeting');
    expect(meeting.getFirstPropertyValue('url')).toBe('https://meet.example.com/x');
    expect(instantOf(meeting, 'dtstart')).toBe(f.meeting.starts_at);
    expect(instantOf(meeting, 'dtstamp')).toBe(NOW.toISOString());

    const weekly = byUid(events, `${f.series[0]?.series_id}@linkboard`);
    expect(ics).toContain('RRULE:FREQ=WEEKLY');
    expect(ics).toContain('EXDATE;TZID=Europe/Berlin:20260323T090000');
    expect(expandedStarts(weekly)).toEqual(f.series.map((row) => row.starts_at));
    expect(events).toHaveLength(2); // the event without a start has no day to go on

    expect(todos.map((todo) => todo.getFirstPropertyValue('summary')).sort()).toEqual(['Pay rent', 'Someday']);
    const rent = byUid(todos, `${f.task.id}@linkboard`);
    expect(instantOf(rent, 'due')).toBe(f.task.starts_at);
    expect(ics).not.toContain('Not mine');
  });

  it('says how many events and tasks it wrote', () => {
    expect(calendarSummary(exp)).toBe('Exported 6 events and tasks.');
    expect(calendarSummary({ ...exp, events: exp.events.slice(0, 1) })).toBe('Exported 1 event or task.');
    expect(workspaceSummary(exp)).toBe('Exported 3 links in 4 directories, 7 events and tasks, and 1 poll.');
  });
});
