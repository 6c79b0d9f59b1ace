// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { exportNetscapeBookmarks } from '../../../src/domain/bookmarks/netscape-export.ts';
import { buildImportPlan } from '../../../src/features/transfer/import-plan.ts';
import { readImportState } from '../../../src/features/transfer/import-state.ts';
import { readImportText } from '../../../src/features/transfer/read-import-file.ts';
import { IMPORT_BATCH, runImport } from '../../../src/features/transfer/run-import.ts';
import { buildWorkspaceExport } from '../../../src/features/transfer/workspace-export.ts';
import type { LinkboardDb } from '../../../src/data/db.ts';
import type { MutationContext } from '../../../src/data/mutation-context.ts';
import { ctx, freshDb, NOW } from '../../data/helpers.ts';
import { makeDirectory, makeEvent, makeLink } from '../../support/builders.ts';
import { exportCtx, seededDb } from './export-fixture.ts';

/** A browser file of `folders` folders of `perFolder` links, each dated and tagged. */
function bookmarkFile(folders: number, perFolder: number): string {
  return exportNetscapeBookmarks(
    Array.from({ length: folders }, (_, f) => ({
      name: `Folder ${f}`,
      links: Array.from({ length: perFolder }, (_, i) => ({
        url: `https://site${f}-${i}.example/`,
        title: `Link ${f}-${i}`,
        createdAt: new Date(Date.UTC(2015, 0, 1) + (f * perFolder + i) * 1000).toISOString(),
        tags: ['t'],
      })),
    })),
  );
}

async function importText(db: LinkboardDb, c: MutationContext, name: string, text: string, onProgress = vi.fn()) {
  const read = readImportText(name, text, new DOMParser());
  if (!read.ok) throw new Error(read.error);
  const plan = buildImportPlan(read.source, await readImportState(db, c), { now: c.now() });
  const summary = await runImport(db, plan, c, { onProgress });
  return { plan, summary, onProgress };
}

describe('runImport', () => {
  it('imports 1,200 links in batches, one outbox entry each, keeping their dates', async () => {
    const db = freshDb();
    const pro = ctx({ tier: 'pro' });
    const pauses = vi.fn(() => Promise.resolve());
    // The sync hears of the import once, after its last batch.
    const heard = vi.fn();
    db.onMutation(heard);
    const read = readImportText('bookmarks.html', bookmarkFile(4, 300), new DOMParser());
    if (!read.ok) throw new Error(read.error);
    const plan = buildImportPlan(read.source, await readImportState(db, pro), { now: NOW });
    const onProgress = vi.fn();
    const summary = await runImport(db, plan, pro, { onProgress, pause: pauses });

    const total = 4 + 1200;
    const batches = Math.ceil(total / IMPORT_BATCH);
    expect(onProgress).toHaveBeenCalledTimes(batches);
    expect(onProgress.mock.calls[0]).toEqual([IMPORT_BATCH, total]);
    expect(onProgress.mock.calls.at(-1)).toEqual([total, total]);
    expect(pauses).toHaveBeenCalledTimes(batches - 1);
    expect(heard).toHaveBeenCalledTimes(1);
    expect(summary).toEqual({ imported: 1200, events: 0, directories: 4, skipped: [], notes: [] });

    const outbox = await db.outbox.toArray();
    expect(outbox.filter((row) => row.name === 'link.create')).toHaveLength(1200);
    expect(outbox.filter((row) => row.name === 'directory.create')).toHaveLength(4);
    // Directories are queued before their links.
    expect(outbox.slice(0, 4).every((row) => row.name === 'directory.create')).toBe(true);
    expect(await db.saved_links.count()).toBe(1200);
    const first = await db.saved_links.filter((l) => l.url === 'https://site0-0.example/').first();
    expect(first).toMatchObject({ created_at: '2015-01-01T00:00:00.000Z', tags: ['t'] });
  });

  it('a second import of the same file only finds duplicates', async () => {
    const db = freshDb();
    const pro = ctx({ tier: 'pro' });
    await importText(db, pro, 'b.html', bookmarkFile(2, 5));
    const { summary } = await importText(db, pro, 'b.html', bookmarkFile(2, 5));
    expect(summary).toMatchObject({ imported: 0, directories: 0, skipped: [{ reason: 'duplicate', count: 10 }] });
    expect(await db.outbox.count()).toBe(12);
  });

  it('Free: fills the one directory up to 30 links and counts the rest', async () => {
    const db = freshDb();
    const free = ctx();
    const { summary } = await importText(db, free, 'b.html', bookmarkFile(2, 20));
    expect(summary.imported).toBe(30);
    expect(summary.directories).toBe(1);
    expect(summary.skipped).toEqual([{ reason: "over the plan's limit", count: 10 }]);
    expect(summary.notes.join(' ')).toMatch(/Free plan has one directory/);
    expect(await db.outbox.count()).toBe(31);
  });

  it('a refusal is a skip with its message', async () => {
    const db = freshDb();
    const free = ctx();
    const dir = makeDirectory();
    await db.link_directories.put(dir);
    const plan = buildImportPlan(
      {
        kind: 'bookmarks',
        folders: [{ name: dir.name, links: [] }],
        rejected: {},
        warnings: [],
        events: [],
        series: [],
      },
      await readImportState(db, free),
      { now: NOW },
    );
    // Links added elsewhere (another tab) after the plan was made fill the plan's room.
    plan.links = [{ id: crypto.randomUUID(), directory_id: dir.id, url: 'https://late.test', title: 'Late' }];
    await db.saved_links.bulkPut(Array.from({ length: 30 }, () => makeLink({ directory_id: dir.id })));
    const summary = await runImport(db, plan, free);
    expect(summary.skipped).toEqual([{ reason: 'Upgrade to Pro to save more links.', count: 1 }]);
    expect(await db.outbox.count()).toBe(0);
  });

  it("imports this app's JSON export: directories, links, events, tasks and series; again, only duplicates", async () => {
    const source = await seededDb();
    const json = JSON.stringify(await buildWorkspaceExport(source, exportCtx()));
    const db = freshDb();
    const pro = ctx({ tier: 'pro' });
    const { summary } = await importText(db, pro, 'linkboard.json', json);
    // The old event without a start is refused by its mutator, as the event dialog would: a skip with its message.
    expect(summary).toMatchObject({
      imported: 2,
      directories: 2,
      skipped: [{ reason: 'Start is required for events.', count: 1 }],
    });
    expect(await db.link_directories.count()).toBe(2);
    expect((await db.saved_links.toArray()).map((l) => l.title).sort()).toEqual(['Newer', 'Older, "quoted"']);
    const events = await db.calendar_events.toArray();
    expect(events.filter((e) => e.series_id !== null)).toHaveLength(3);
    expect(events.find((e) => e.title === 'Pay rent')).toMatchObject({ is_task: true, priority: 'high' });
    expect(summary.events).toBe(events.filter((e) => e.series_id === null).length + 1);

    const again = await importText(db, pro, 'linkboard.json', json);
    expect(again.summary).toMatchObject({ imported: 0, events: 0, directories: 0 });
    expect(again.summary.skipped).toEqual([
      { reason: 'duplicate', count: 2 + summary.events },
      { reason: 'Start is required for events.', count: 1 },
    ]);
  });
});

describe('export → import → export', () => {
  it('loses nothing of the own workspace: directories, links, events, tasks, series, reminders and all-day', async () => {
    const source = await seededDb();
    // A reminder on every kind of item, so the round trip has to carry it.
    await source.calendar_events.toCollection().modify({ reminder_minutes: 15 });
    // A public directory, so the round trip has to carry the visibility.
    await source.link_directories.filter((d) => d.name === 'Empty').modify({ is_public: true });
    // An all-day event and an all-day task, stored as the dialog stores them (whole days in UTC here).
    await source.calendar_events.bulkPut([
      makeEvent({
        title: 'Offsite',
        all_day: true,
        starts_at: '2026-03-18T00:00:00.000Z',
        ends_at: '2026-03-20T00:00:00.000Z',
        reminder_minutes: 15,
      }),
      makeEvent({
        title: 'Tax day',
        is_task: true,
        priority: 'medium',
        all_day: true,
        starts_at: '2026-03-19T00:00:00.000Z',
        ends_at: '2026-03-19T00:00:00.000Z',
        reminder_minutes: 15,
      }),
    ]);
    const first = await buildWorkspaceExport(source, exportCtx());
    const db = freshDb();
    const pro = ctx({ tier: 'pro' });
    await importText(db, pro, 'linkboard.json', JSON.stringify(first));
    const second = await buildWorkspaceExport(db, exportCtx());

    const directories = (exp: typeof first) =>
      exp.directories
        .map((d) => ({
          name: d.name,
          description: d.description,
          color: d.color,
          is_public: d.is_public,
          links: d.links
            .map(({ url, title, notes, description, tags, is_favorite, created_at }) => ({
              ...{ url, title, notes, description, tags, is_favorite },
              created_at: new Date(created_at).toISOString(),
            }))
            .sort((a, b) => a.url.localeCompare(b.url)),
        }))
        .sort((a, b) => a.name.localeCompare(b.name));
    // Events that can exist (an event without a start is refused by its own mutator).
    const events = (exp: typeof first) =>
      exp.events
        .filter((e) => e.is_task || e.starts_at !== null)
        .map((e) => ({
          ...{ title: e.title, description: e.description, starts_at: e.starts_at, is_task: e.is_task },
          ...{ priority: e.priority, is_completed: e.is_completed, rule: e.recurrence_rule },
          ...{ until: e.recurrence_end_date, reminder: e.reminder_minutes, ends_at: e.is_task ? null : e.ends_at },
          all_day: e.all_day,
        }))
        .sort((a, b) => `${a.title}${a.starts_at}`.localeCompare(`${b.title}${b.starts_at}`));

    expect(directories(second)).toEqual(directories(first));
    expect(second.directories.find((d) => d.name === 'Empty')?.is_public).toBe(true);
    expect(events(second)).toEqual(events(first));
    expect(events(second).every((e) => e.reminder === 15)).toBe(true);
    expect(
      events(second)
        .filter((e) => e.all_day)
        .map((e) => e.title),
    ).toEqual(['Offsite', 'Tax day']);
  });
});

/** A Raindrop.io export, as Raindrop writes it (tests/domain/bookmarks/fixtures/raindrop.netscape). */
const raindropFile = (links: string) => `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<!-- This is an automatically generated file.
It will be read and overwritten.
Do Not Edit! -->
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<TITLE>Raindrop.io Bookmarks</TITLE>
<H1>Raindrop.io Bookmarks</H1>
<DL><p>
<DT><H3 ADD_DATE="1710000000" LAST_MODIFIED="1710000000">Reading</H3>
<DL><p>
${links}
</DL><p>
</DL><p>
`;

describe('duplicates in an import', () => {
  it('imports one link for the same page written twice, by the rule of Add Link', async () => {
    const db = freshDb();
    const pro = ctx({ tier: 'pro' });
    const file = raindropFile(
      [
        '<DT><A HREF="https://Example.org/page/?utm_source=x" ADD_DATE="1710000100" LAST_MODIFIED="1710000100" TAGS="" DATA-COVER="">Page</A>',
        '<DT><A HREF="https://example.org/page" ADD_DATE="1710000200" LAST_MODIFIED="1710000200" TAGS="" DATA-COVER="">Page again</A>',
        '<DT><A HREF="https://example.org/page#/other-route" ADD_DATE="1710000300" LAST_MODIFIED="1710000300" TAGS="" DATA-COVER="">Its app route</A>',
      ].join('\n'),
    );
    const { plan, summary } = await importText(db, pro, 'raindrop.html', file);
    expect(plan.skipped.duplicate).toBe(1);
    expect(summary.imported).toBe(2);
    expect((await db.saved_links.toArray()).map((link) => link.title).sort()).toEqual(['Its app route', 'Page']);
  });

  it('skips a bookmark already saved in its directory under another spelling', async () => {
    const db = freshDb();
    const pro = ctx({ tier: 'pro' });
    await db.link_directories.put(makeDirectory({ id: 'reading', name: 'Reading' }));
    await db.saved_links.put(makeLink({ directory_id: 'reading', url: 'https://example.org/page', title: 'Saved' }));
    const file = raindropFile(
      '<DT><A HREF="http://www.example.org/page/?fbclid=IwAR2x&amp;utm_medium=email" ADD_DATE="1710000100" LAST_MODIFIED="1710000100" TAGS="" DATA-COVER="">Page</A>',
    );
    const { plan, summary } = await importText(db, pro, 'raindrop.html', file);
    expect(plan.skipped.duplicate).toBe(1);
    expect(summary.imported).toBe(0);
    expect(await db.saved_links.count()).toBe(1);
  });
});
