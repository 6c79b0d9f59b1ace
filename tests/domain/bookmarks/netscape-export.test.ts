// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  escapeHtml,
  exportNetscapeBookmarks,
  isoToEpochSeconds,
  type ExportFolder,
} from '../../../src/domain/bookmarks/netscape-export.ts';
import { parseNetscapeBookmarks } from '../../../src/domain/bookmarks/netscape-parse.ts';

const parse = (html: string) => parseNetscapeBookmarks(html, new DOMParser());

describe('exportNetscapeBookmarks', () => {
  it('writes the standard file, leaving out empty attributes', () => {
    const html = exportNetscapeBookmarks([
      {
        name: 'Work',
        links: [
          {
            url: 'https://a.example/',
            title: 'A',
            createdAt: '2023-11-14T22:13:20.999Z',
            tags: ['x', 'y'],
            description: 'About A',
          },
          { url: 'https://b.example/', title: 'B', createdAt: null, tags: [] },
        ],
      },
      { name: 'Empty', links: [] },
    ]);
    expect(html).toBe(
      [
        '<!DOCTYPE NETSCAPE-Bookmark-file-1>',
        '<!-- This is an automatically generated file.',
        '     It will be read and overwritten.',
        '     DO NOT EDIT! -->',
        '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">',
        '<TITLE>Bookmarks</TITLE>',
        '<H1>Bookmarks</H1>',
        '<DL><p>',
        '    <DT><H3>Work</H3>',
        '    <DL><p>',
        '        <DT><A HREF="https://a.example/" ADD_DATE="1700000000" TAGS="x,y">A</A>',
        '        <DD>About A',
        '        <DT><A HREF="https://b.example/">B</A>',
        '    </DL><p>',
        '    <DT><H3>Empty</H3>',
        '    <DL><p>',
        '    </DL><p>',
        '</DL><p>',
        '',
      ].join('\n'),
    );
  });

  it('escapes text and attribute values', () => {
    expect(escapeHtml(`Tom & "Jerry" <b>'s</b>`)).toBe('Tom &amp; &quot;Jerry&quot; &lt;b&gt;&#39;s&lt;/b&gt;');
    const html = exportNetscapeBookmarks([
      {
        name: '<F> & "G"',
        links: [
          {
            url: `https://x.example/?a=1&b="2"&c='3'`,
            title: '<script>alert(1)</script>',
            createdAt: null,
            tags: ['a"b'],
          },
        ],
      },
    ]);
    expect(html).toContain('<H3>&lt;F&gt; &amp; &quot;G&quot;</H3>');
    expect(html).toContain(
      '<A HREF="https://x.example/?a=1&amp;b=&quot;2&quot;&amp;c=&#39;3&#39;" TAGS="a&quot;b">&lt;script&gt;alert(1)&lt;/script&gt;</A>',
    );
    expect(html).not.toContain('<script>');
  });

  it('cleans tags (commas cannot live inside one) and descriptions, and skips unusable dates', () => {
    const html = exportNetscapeBookmarks([
      {
        name: 'F',
        links: [
          {
            url: 'https://a.example/',
            title: 'A',
            createdAt: 'not a date',
            tags: [' a ', 'a', 'b,c', ''],
            description: ' \r\nx\r\ny ',
          },
          { url: 'https://b.example/', title: 'B', createdAt: '1960-01-01T00:00:00Z', tags: [], description: '  ' },
        ],
      },
    ]);
    expect(html).toContain('<DT><A HREF="https://a.example/" TAGS="a,b c">A</A>\n        <DD>x\ny\n');
    expect(html).toContain('<DT><A HREF="https://b.example/">B</A>\n    </DL>');
    expect(isoToEpochSeconds('1970-01-01T00:00:01Z')).toBe(1);
    expect(isoToEpochSeconds('1970-01-01T00:00:00.500Z')).toBeNull();
    expect(isoToEpochSeconds(null)).toBeNull();
  });
});

describe('export then parse', () => {
  it('round-trips folder names, urls, titles, dates to the second, tags and descriptions', () => {
    const folders: ExportFolder[] = [
      {
        name: 'Work / Clients',
        links: [
          {
            url: 'https://acme.example.com/q?x=1&y=%22two%22#frag',
            title: 'Acme & Sons "Q3" <report> it\'s',
            createdAt: '2024-02-29T23:59:59.000Z',
            tags: ['client', 'Q3 & Q4', '<b>'],
            description: 'Line one & <two>\nLine "three"',
          },
          { url: 'http://old.example/', title: 'Old', createdAt: null, tags: [], description: null },
        ],
      },
      { name: 'Empty folder', links: [] },
      {
        name: '日本語 🦊 עברית',
        links: [
          {
            url: 'https://例え.jp/パス',
            title: '東京\u3000タワー 🗼 שלום',
            createdAt: '2001-09-09T01:46:40.000Z',
            tags: ['旅行', 'שלום'],
            description: 'مرحبا بالعالم',
          },
        ],
      },
      {
        name: 'Imported bookmarks',
        links: [{ url: 'https://a.example/', title: 'A', createdAt: null, tags: ['a'], description: null }],
      },
    ];
    expect(parse(exportNetscapeBookmarks(folders))).toEqual({ folders, skipped: [] });
  });

  it('gives back what it read from each browser fixture', () => {
    for (const name of ['chrome', 'firefox', 'safari', 'raindrop']) {
      const first = parse(readFileSync(join(import.meta.dirname, 'fixtures', `${name}.netscape`), 'utf8'));
      // The export writes each directory as a top-level folder: the nesting is in the name alone.
      const flat = first.folders.map(({ name, links }) => ({ name, links }));
      expect(parse(exportNetscapeBookmarks(first.folders)).folders, name).toEqual(flat);
    }
  });
});
