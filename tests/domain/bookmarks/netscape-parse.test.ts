// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import {
  cleanText,
  epochToIso,
  IMPORTED_FOLDER_NAME,
  normalizeTags,
  parseNetscapeBookmarks,
} from '../../../src/domain/bookmarks/netscape-parse.ts';

const parse = (body: string) =>
  parseNetscapeBookmarks(`<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<TITLE>Bookmarks</TITLE>\n${body}`, new DOMParser());
const names = (body: string) => parse(body).folders.map((f) => [f.name, f.links.map((l) => l.title)]);

describe('parseNetscapeBookmarks: document shapes', () => {
  it('finds a folder whose <DL> is a sibling of its closed <DT> as well as one nested inside it', () => {
    const body = `<H1>Bookmarks</H1><DL><p>
      <DT><H3>Closed</H3></DT>
      <DL><p><DT><A HREF="https://a.example/">A</A></DT></DL><p>
      <DT><H3>Open</H3>
      <DL><p><DT><A HREF="https://b.example/">B</A></DL><p>
      <DT><A HREF="https://c.example/">C</A>
    </DL>`;
    expect(names(body)).toEqual([
      ['Closed', ['A']],
      ['Open', ['B']],
      [IMPORTED_FOLDER_NAME, ['C']],
    ]);
  });

  it('keeps a folder with no <DL> as empty, and its following link stays in the parent', () => {
    const body = `<DL><p><DT><H3>Parent</H3><DL><p>
      <DT><H3>No list</H3>
      <DT><A HREF="https://a.example/">A</A>
    </DL><p></DL>`;
    expect(names(body)).toEqual([
      ['Parent', ['A']],
      ['Parent / No list', []],
    ]);
  });

  it("gives a link its own <DD>, not a folder's <DD> that holds the folder's list", () => {
    const { folders } = parse(`<DL><p>
      <DT><A HREF="https://a.example/">A</A>
      <DD>About A
      <DT><H3>F</H3>
      <DD>About the folder
      <DL><p><DT><A HREF="https://b.example/">B</A></DL><p>
    </DL>`);
    expect(folders.map((f) => [f.name, f.links.map((l) => l.description)])).toEqual([
      [IMPORTED_FOLDER_NAME, ['About A']],
      ['F', [null]],
    ]);
  });

  it('merges folders with the same flattened name and names empty folder titles', () => {
    const body = `<DL><p>
      <DT><H3> Misc </H3><DL><p><DT><A HREF="https://a.example/">A</A></DL><p>
      <DT><H3>Misc</H3><DL><p><DT><A HREF="https://b.example/">B</A></DL><p>
      <DT><H3>  </H3><DL><p><DT><A HREF="https://c.example/">C</A></DL><p>
    </DL>`;
    expect(names(body)).toEqual([
      ['Misc', ['A', 'B']],
      ['Untitled folder', ['C']],
    ]);
  });

  it('flattens deep nesting without listing folders that only hold folders', () => {
    const depth = 60;
    const body = '<DL><p>' + '<DT><H3>L</H3><DL><p>'.repeat(depth) + '<DT><A HREF="https://deep.example/">Deep</A>';
    expect(names(body)).toEqual([[Array(depth).fill('L').join(' / '), ['Deep']]]);
  });

  it('reads lower-case tags and attributes, and links in plain lists such as an old Pocket export', () => {
    const body = `<h1>Unread</h1><ul>
      <li><a href="https://a.example/" time_added="1589993377" tags="x,y">A</a></li>
    </ul>`;
    expect(parse(body).folders).toEqual([
      {
        name: IMPORTED_FOLDER_NAME,
        links: [{ url: 'https://a.example/', title: 'A', createdAt: null, tags: ['x', 'y'], description: null }],
      },
    ]);
  });

  it('names the top-level folder after the <H1> only when it is a browser root', () => {
    const body = (h1: string) => `<H1>${h1}</H1><DL><p><DT><A HREF="https://a.example/">A</A></DL>`;
    expect(names(body('Bookmarks Menu'))).toEqual([['Bookmarks Menu', ['A']]]);
    expect(names(body('bookmarks toolbar'))).toEqual([['bookmarks toolbar', ['A']]]);
    expect(names(body('Bookmarks'))).toEqual([[IMPORTED_FOLDER_NAME, ['A']]]);
    expect(names(body('My export'))).toEqual([[IMPORTED_FOLDER_NAME, ['A']]]);
  });

  it('returns nothing for an empty or unrelated document', () => {
    expect(parse('')).toEqual({ folders: [], skipped: [] });
    expect(parse('<p>Hello <b>world</b></p>')).toEqual({ folders: [], skipped: [] });
  });
});

describe('parseNetscapeBookmarks: links', () => {
  it('takes http and https only, and reports every other link with the true reason', () => {
    const notHttp = [
      'mailto:me@example.com',
      'ftp://files.example/',
      'about:blank',
      '/relative/path',
      'file:///C:/a.html',
    ];
    const long = `https://long.example/${'x'.repeat(2100)}`;
    const invalid = ['https://exa mple.com/', 'http:///no-host', 'https://a.example:99999/'];
    const hrefs = [...notHttp, '', ' ', long, ...invalid];
    const body = `<DL><p>${hrefs.map((h, i) => `<DT><A HREF="${h}">L${i}</A>`).join('')}<DT><A>No href</A>
      <DT><A HREF="  http://plain.example/x  ">Plain</A></DL>`;
    const { folders, skipped } = parse(body);
    expect(folders.flatMap((f) => f.links.map((l) => l.url))).toEqual(['http://plain.example/x']);
    const reasons = [...notHttp.map(() => 'not-http'), 'empty', 'empty', 'too-long', ...invalid.map(() => 'invalid')];
    expect(skipped).toEqual([
      ...hrefs.map((url, i) => ({ title: `L${i}`, url: url.trim(), reason: reasons[i] })),
      { title: 'No href', url: '', reason: 'empty' },
    ]);
  });

  it('uses the URL as the title when the title is missing or blank, and collapses whitespace', () => {
    const { folders } = parse(`<DL><p>
      <DT><A HREF="https://a.example/"> </A>
      <DT><A HREF="https://b.example/">  Two\n\t lines  </A>
      <DT><A HREF="https://c.example/"><B>Bold</B> part</A></DL>`);
    expect(folders[0]?.links.map((l) => l.title)).toEqual(['https://a.example/', 'Two lines', 'Bold part']);
  });
});

describe('field helpers', () => {
  it('epochToIso reads seconds, milliseconds and microseconds to the whole second', () => {
    const iso = '2023-11-14T22:13:20.000Z';
    expect(epochToIso('1700000000')).toBe(iso);
    expect(epochToIso(' 1700000000 ')).toBe(iso);
    expect(epochToIso('1700000000.9')).toBe(iso);
    expect(epochToIso('1700000000999')).toBe(iso);
    expect(epochToIso('1700000000999999')).toBe(iso);
    expect(epochToIso('1')).toBe('1970-01-01T00:00:01.000Z');
    for (const bad of [null, '', '0', '-5', 'abc', '1e9', '0x10', '12 34', '9'.repeat(400)]) {
      expect(epochToIso(bad)).toBeNull();
    }
  });

  it('normalizeTags trims, drops empties and duplicates, keeps first-seen order and case', () => {
    expect(normalizeTags([' b', 'a ', '', 'b', '  ', 'A', '東京'])).toEqual(['b', 'a', 'A', '東京']);
  });

  it('cleanText collapses HTML whitespace only', () => {
    expect(cleanText(' \t a \n\r b  ')).toBe('a b');
    expect(cleanText('日本\u3000語')).toBe('日本\u3000語');
  });
});
