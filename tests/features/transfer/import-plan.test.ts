// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseNetscapeBookmarks } from '../../../src/domain/bookmarks/netscape-parse.ts';
import type { UrlProblem } from '../../../src/domain/bookmarks/url-problem.ts';
import { linkIdentity } from '../../../src/domain/link-identity.ts';
import { messages } from '../../../src/domain/sync-codes.ts';
import {
  FREE_FOLDERS_NOTE,
  IMPORT_LINKS_MAX,
  NESTED_NOTE,
  NEXT_IMPORT_NOTE,
  PASSWORD_NOTE,
  TAGS_NOTE,
  buildImportPlan,
  skipList,
} from '../../../src/features/transfer/import-plan.ts';
import {
  fromBookmarks,
  type ImportSource,
  type SourceFolder,
  type SourceLink,
} from '../../../src/features/transfer/import-source.ts';
import type { ImportState } from '../../../src/features/transfer/import-state.ts';

const NOW = new Date('2026-03-15T12:00:00Z');
let n = 0;
const newId = () => `id-${++n}`;

function state(overrides: Partial<ImportState> = {}): ImportState {
  return {
    tier: 'pro',
    directories: [],
    keysByDirectory: new Map(),
    linkCount: 0,
    directoryCount: 0,
    eventsThisMonth: 0,
    eventKeys: new Set(),
    ...overrides,
  };
}

function link(url: string, overrides: Partial<SourceLink> = {}): SourceLink {
  return { url, title: url, createdAt: null, tags: [], description: null, notes: null, favorite: false, ...overrides };
}

function source(
  folders: Record<string, SourceLink[]>,
  rejected: Partial<Record<UrlProblem, number>> = {},
): ImportSource {
  return {
    kind: 'bookmarks',
    folders: Object.entries(folders).map(([name, links]) => ({ name, links })),
    rejected,
    warnings: [],
    events: [],
    series: [],
  };
}

const plan = (src: ImportSource, st: ImportState) => buildImportPlan(src, st, { now: NOW, newId });

describe('buildImportPlan', () => {
  it('brings at most its cap of links an import; importing the file again brings the next ones, then the rest', () => {
    // The cap scaled down 100 times (the rule is the same at 50,000): 1,200 bookmarks in two folders,
    // 160 of them already saved in the first one.
    const cap = IMPORT_LINKS_MAX / 100;
    const urls = (folder: string, count: number) =>
      Array.from({ length: count }, (_, i) => link(`https://${folder}.test/page/${i}?utm_source=feed`));
    const file = source({ Reading: urls('reading', 800), Work: urls('work', 400) });
    const identity = (url: string) => linkIdentity(url) ?? url;
    const keys = new Map([
      ['own', new Set(Array.from({ length: 160 }, (_, i) => identity(`https://reading.test/page/${i}`)))],
    ]);
    const saved = state({ directories: [{ id: 'own', name: 'Reading' }], directoryCount: 1, keysByDirectory: keys });
    const pages: number[] = [];
    for (let round = 0; round < 4; round += 1) {
      const p = buildImportPlan(file, saved, { now: NOW, newId, maxLinks: cap });
      pages.push(p.links.length);
      if (round === 0) {
        expect(p.skipped).toMatchObject({ duplicate: 160, 'next-import': 540 });
        expect(p.notes).toContain(NEXT_IMPORT_NOTE(540, cap));
        expect(NEXT_IMPORT_NOTE(540, cap)).toBe(
          'An import brings at most 500 links. Import the same file again for the 540 left: the ones imported now are skipped as duplicates.',
        );
        expect(skipList(p.skipped)).toContainEqual({ reason: 'left for the next import', count: 540 });
      }
      if (round === 2) expect(p.notes.some((note) => note.startsWith('An import brings'))).toBe(false);
      // What this import wrote is there for the next one, as the local database's keys would be.
      const byDirectory = new Map(saved.keysByDirectory);
      for (const dir of p.directories) saved.directories.push({ id: dir.id, name: dir.name });
      for (const created of p.links) {
        const set = byDirectory.get(created.directory_id) ?? new Set<string>();
        set.add(identity(created.url));
        byDirectory.set(created.directory_id, set);
      }
      saved.keysByDirectory = byDirectory;
    }
    expect(pages).toEqual([cap, cap, 40, 0]);
    // The app's cap, in the note users read.
    expect(NEXT_IMPORT_NOTE(54_000)).toBe(
      'An import brings at most 50,000 links. Import the same file again for the 54,000 left: the ones imported now are skipped as duplicates.',
    );
  });

  it('creates a directory per folder, reusing one of the same name case-insensitively', () => {
    const st = state({ directories: [{ id: 'own', name: 'Reading' }], directoryCount: 1 });
    const p = plan(source({ reading: [link('https://a.test')], Work: [link('https://b.test')] }), st);
    expect(p.reused).toEqual(['Reading']);
    expect(p.directories.map((d) => d.name)).toEqual(['Work']);
    expect(p.links.map((l) => [l.directory_id, l.url])).toEqual([
      ['own', 'https://a.test'],
      [p.directories[0]!.id, 'https://b.test'],
    ]);
    expect(p.found).toEqual({ links: 2, folders: 2, events: 0 });
  });

  it('skips duplicates in the file and already there, and non-http links, with a count per reason', () => {
    const st = state({
      directories: [{ id: 'own', name: 'Reading' }],
      keysByDirectory: new Map([['own', new Set(['https://there.test'])]]),
    });
    const p = plan(
      source(
        {
          Reading: [link('https://there.test'), link('https://a.test'), link('https://a.test'), link('ftp://x.test')],
          Other: [link('https://a.test')],
        },
        { 'not-http': 2 },
      ),
      st,
    );
    // The same URL in another directory is not a duplicate.
    expect(p.links.map((l) => l.url)).toEqual(['https://a.test', 'https://a.test']);
    expect(p.skipped).toEqual({
      empty: 0,
      'not-http': 3,
      'too-long': 0,
      invalid: 0,
      duplicate: 2,
      'over-limit': 0,
      'next-import': 0,
    });
    expect(skipList(p.skipped)).toEqual([
      { reason: 'not http(s)', count: 3 },
      { reason: 'duplicate', count: 2 },
    ]);
  });

  it('keeps tags, favourites and the ADD_DATE on Pro; a date the server would refuse becomes now', () => {
    const p = plan(
      source({
        A: [
          link('https://a.test', { tags: ['x', ' x', 'y'], createdAt: '2012-03-04T05:06:07.000Z', favorite: true }),
          link('https://b.test', { createdAt: '1970-01-01T00:00:01.000Z' }),
        ],
      }),
      state(),
    );
    expect(p.links[0]).toMatchObject({ tags: ['x', 'y'], is_favorite: true, created_at: '2012-03-04T05:06:07.000Z' });
    expect(p.links[1]).not.toHaveProperty('created_at');
    expect(p.notes).toEqual([]);
  });

  it("cuts a nested folder's long name to the server's 100 characters, one directory per name", () => {
    const long = `${'Work / '.repeat(20)}Clients`;
    const p = plan(source({ [long]: [link('https://a.test')], [`${long} 2`]: [link('https://b.test')] }), state());
    expect(p.directories).toHaveLength(1);
    expect(p.directories[0]!.name.length).toBeLessThanOrEqual(100);
    expect(p.links.map((l) => l.directory_id)).toEqual([p.directories[0]!.id, p.directories[0]!.id]);
  });

  it('Free: tags are left out, and the summary says so', () => {
    const p = plan(source({ A: [link('https://a.test', { tags: ['x'] })] }), state({ tier: 'free' }));
    expect(p.links[0]).not.toHaveProperty('tags');
    expect(p.notes).toContain(TAGS_NOTE);
  });

  it('Free with no directory: every folder goes into one new directory, up to 30 links', () => {
    const many = Array.from({ length: 20 }, (_, i) => link(`https://a${i}.test`));
    const more = Array.from({ length: 20 }, (_, i) => link(`https://b${i}.test`));
    const p = plan(source({ A: many, B: more }), state({ tier: 'free', linkCount: 5 }));
    expect(p.room).toBe(25);
    expect(p.directories.map((d) => d.name)).toEqual(['Imported bookmarks']);
    expect(p.links).toHaveLength(25);
    expect(new Set(p.links.map((l) => l.directory_id))).toEqual(new Set([p.directories[0]!.id]));
    expect(p.skipped['over-limit']).toBe(15);
    expect(p.notes).toContain(FREE_FOLDERS_NOTE('Imported bookmarks'));
  });

  it('Free with a file of one folder names the new directory after it', () => {
    const p = plan(source({ Work: [link('https://a.test')] }), state({ tier: 'free' }));
    expect(p.directories.map((d) => d.name)).toEqual(['Work']);
  });

  it('Free with a directory: folders go into it, duplicates counted across folders', () => {
    const st = state({
      tier: 'free',
      directories: [{ id: 'own', name: 'Mine' }],
      directoryCount: 1,
      keysByDirectory: new Map([['own', new Set(['https://a.test'])]]),
      linkCount: 1,
    });
    const p = plan(source({ A: [link('https://a.test'), link('https://b.test')], B: [link('https://b.test')] }), st);
    expect(p.directories).toEqual([]);
    expect(p.reused).toEqual(['Mine']);
    expect(p.links.map((l) => [l.directory_id, l.url])).toEqual([['own', 'https://b.test']]);
    expect(p.skipped.duplicate).toBe(2);
    expect(p.notes).toContain(FREE_FOLDERS_NOTE('Mine'));
  });

  it('Free at the limit: nothing fits', () => {
    const st = state({ tier: 'free', directories: [{ id: 'own', name: 'Mine' }], directoryCount: 1, linkCount: 30 });
    const p = plan(source({ A: [link('https://a.test')] }), st);
    expect(p.room).toBe(0);
    expect(p.links).toEqual([]);
    expect(p.skipped['over-limit']).toBe(1);
    // The way out is the upgrade, in the words of docs/product.md.
    expect(p.upsell).toBe(messages.moreLinks);
  });

  it('Free under the limit, and Pro: no upsell', () => {
    expect(plan(source({ A: [link('https://a.test')] }), state({ tier: 'free' })).upsell).toBeNull();
    expect(plan(source({ A: [link('https://a.test')] }), state({ linkCount: 5000 })).upsell).toBeNull();
  });

  it('skips each URL under its true reason', () => {
    const long = `https://long.example/${'a'.repeat(2048 - 21)}`;
    expect(long).toHaveLength(2048);
    const urls = [
      'javascript:alert(1)',
      'data:text/html,<b>hi</b>',
      'file:///C:/Users/me/notes.html',
      'example.com/no-scheme',
      '',
      '   ',
      `${long}b`,
      'https://exa mple.com/',
      'http:///path-only',
      'https://a.example/\u0000nul',
      'https://a.example/\ud800',
      'https://a.example:99999/',
      long,
    ];
    const p = plan(source({ A: urls.map((url) => link(url)) }), state());
    expect(p.links.map((l) => l.url)).toEqual([long]);
    expect(skipList(p.skipped)).toEqual([
      { reason: 'without a URL', count: 2 },
      { reason: 'not http(s)', count: 4 },
      { reason: 'URL longer than 2,048 characters', count: 1 },
      { reason: 'not a valid URL', count: 5 },
    ]);
  });

  it("keeps a Linkboard export's visibility; a password-protected directory comes back private, and it is said", () => {
    const folder = (name: string, extra: Partial<SourceFolder>): SourceFolder => ({
      name,
      color: 'green',
      description: null,
      links: [link(`https://${name.toLowerCase()}.test`)],
      ...extra,
    });
    const src: ImportSource = {
      ...source({}),
      kind: 'workspace',
      folders: [
        folder('Public', { isPublic: true, hasPassword: false }),
        folder('Private', { isPublic: false, hasPassword: false }),
        folder('Locked', { isPublic: true, hasPassword: true }),
      ],
    };
    const p = plan(src, state());
    expect(p.directories.map(({ name, is_public }) => [name, is_public])).toEqual([
      ['Public', true],
      ['Private', undefined],
      ['Locked', undefined],
    ]);
    expect(p.directories.every((d) => d.password === undefined)).toBe(true);
    expect(p.notes).toEqual([PASSWORD_NOTE]);
  });

  it('says that nested folders become directories named with their parents', () => {
    const src = source({ Reading: [link('https://r.test')] });
    src.folders.push({ name: 'Dev / PHP', nested: true, links: [link('https://php.test')] });
    const p = plan(src, state());
    expect(p.directories.map((d) => d.name)).toEqual(['Reading', 'Dev / PHP']);
    expect(p.notes).toEqual([NESTED_NOTE('Dev / PHP')]);
    expect(NESTED_NOTE('Dev / PHP')).toBe('Nested folders become directories named like "Dev / PHP".');
    // Free: everything goes into one directory, so the nesting is not what the user needs to hear.
    expect(plan(src, state({ tier: 'free' })).notes).not.toContain(NESTED_NOTE('Dev / PHP'));
  });

  it('plans a browser file (Chrome sample) with its folders and dates', () => {
    const html = readFileSync(join(import.meta.dirname, '../../domain/bookmarks/fixtures/chrome.netscape'), 'utf8');
    const parsed = parseNetscapeBookmarks(html, new DOMParser());
    const p = plan(fromBookmarks(parsed), state());
    const found = parsed.folders.reduce((sum, f) => sum + f.links.length, 0);
    expect(p.found.links).toBe(found + parsed.skipped.length);
    expect(p.links.length + p.skipped.duplicate).toBe(found);
    expect(p.directories.length).toBe(parsed.folders.length);
    expect(p.links.every((l) => (l.created_at ?? '') < NOW.toISOString())).toBe(true);
  });

  it('keeps text the server can store: no NUL, no lone UTF-16 half, never half a pair at a cut', () => {
    const emojiAt499 = `${'a'.repeat(499)}😀`; // the pair at units 499-500: a cut at 500 would split it
    const src = source({
      ['Dev\u0000 / \ud800PHP']: [
        link('https://a.test', {
          title: 'Ti\u0000tle \udc00 end',
          description: 'desc\u0000',
          notes: 'n\ud83d',
          tags: ['t\u0000ag', '\u0000'],
        }),
        link('https://b.test', { title: emojiAt499 }),
        link('https://c.test', { title: '\u0000\u0000' }),
      ],
    });
    const p = plan(src, state());
    expect(p.directories[0]?.name).toBe('Dev / \ufffdPHP');
    expect(p.links[0]).toMatchObject({
      title: 'Title \ufffd end',
      description: 'desc',
      notes: 'n\ufffd',
      tags: ['tag'],
    });
    expect(p.links[1]?.title).toBe('a'.repeat(499));
    expect(p.links[2]?.title).toBe('https://c.test');
    const texts = JSON.stringify([p.directories, p.links]);
    expect(texts).not.toMatch(/\\u0000|\\ud[89ab]|\\ud[c-f]/i);
  });
});
