// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { exportNetscapeBookmarks } from '../../../src/domain/bookmarks/netscape-export.ts';
import { parseNetscapeBookmarks } from '../../../src/domain/bookmarks/netscape-parse.ts';

const FOLDERS = 12;
const PER_FOLDER = 100;
const BASE_SECONDS = 1_600_000_000;

/** A browser-shaped file: 12 folders nested in pairs (parent with links, then its child), 1,200 links. */
function generatedFile(): string {
  const lines = ['<!DOCTYPE NETSCAPE-Bookmark-file-1>', '<TITLE>Bookmarks</TITLE>', '<H1>Bookmarks</H1>', '<DL><p>'];
  for (let f = 0; f < FOLDERS; f++) {
    const child = f % 2 === 1;
    lines.push(`<DT><H3 ADD_DATE="${BASE_SECONDS}">Folder ${f} &amp; co</H3>`, '<DL><p>');
    for (let i = 0; i < PER_FOLDER; i++) {
      const n = f * PER_FOLDER + i;
      const href = i % 50 === 49 ? `javascript:void(${n})` : `https://site${n}.example/path?id=${n}&amp;x=y`;
      lines.push(`<DT><A HREF="${href}" ADD_DATE="${BASE_SECONDS + n}" TAGS="t${n % 7},all">Link ${n}</A>`);
      if (i % 10 === 0) lines.push(`<DD>Note ${n}`);
    }
    // Odd folders close with their even parent; even folders stay open for the next one.
    lines.push(child ? '</DL><p></DL><p>' : '');
  }
  lines.push('</DL><p>');
  return lines.join('\n');
}

describe('a large generated file', () => {
  it('parses 1,200 entries into nested folders, in order, with dates, tags and skipped bookmarklets', () => {
    const started = performance.now();
    const { folders, skipped } = parseNetscapeBookmarks(generatedFile(), new DOMParser());
    const elapsed = performance.now() - started;

    expect(folders).toHaveLength(FOLDERS);
    expect(folders.map((f) => f.name).slice(0, 4)).toEqual([
      'Folder 0 & co',
      'Folder 0 & co / Folder 1 & co',
      'Folder 2 & co',
      'Folder 2 & co / Folder 3 & co',
    ]);
    expect(folders.every((f) => f.links.length === PER_FOLDER - 2)).toBe(true);
    expect(skipped).toHaveLength(FOLDERS * 2);
    expect(skipped[0]).toEqual({ title: 'Link 49', url: 'javascript:void(49)', reason: 'not-http' });

    const all = folders.flatMap((f) => f.links);
    expect(all).toHaveLength(FOLDERS * (PER_FOLDER - 2));
    expect(all.map((l) => Number(l.title.slice(5)))).toEqual(
      [...all.map((l) => Number(l.title.slice(5)))].sort((a, b) => a - b),
    );
    expect(all[0]).toEqual({
      url: 'https://site0.example/path?id=0&x=y',
      title: 'Link 0',
      createdAt: new Date(BASE_SECONDS * 1000).toISOString(),
      tags: ['t0', 'all'],
      description: 'Note 0',
    });
    const last = all.at(-1);
    expect(last?.title).toBe('Link 1198');
    expect(last?.createdAt).toBe(new Date((BASE_SECONDS + 1198) * 1000).toISOString());
    expect(last?.description).toBeNull();
    expect(all.filter((l) => l.description !== null)).toHaveLength(FOLDERS * 10);
    // Generous: the walk is linear; this only catches an accidental quadratic step.
    expect(elapsed).toBeLessThan(5_000);
  });

  it('round-trips the parsed entries through an export', () => {
    const { folders } = parseNetscapeBookmarks(generatedFile(), new DOMParser());
    const again = parseNetscapeBookmarks(exportNetscapeBookmarks(folders), new DOMParser());
    // The export writes each folder at the top level: the nesting is in the name alone.
    expect(again).toEqual({ folders: folders.map(({ name, links }) => ({ name, links })), skipped: [] });
  });
});
