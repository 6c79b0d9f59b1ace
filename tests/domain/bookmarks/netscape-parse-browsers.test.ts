// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseNetscapeBookmarks, type ParsedLink } from '../../../src/domain/bookmarks/netscape-parse.ts';

// The fixtures are files as each product writes them. They end in `.netscape`, not `.html`, because
// Prettier would try to format them as HTML (and fails on the unclosed `<DT>` and `<p>` tags browsers write).
function parseFixture(name: string) {
  const html = readFileSync(join(import.meta.dirname, 'fixtures', `${name}.netscape`), 'utf8');
  return parseNetscapeBookmarks(html, new DOMParser());
}

function link(
  url: string,
  title: string,
  seconds: number | null,
  tags: string[] = [],
  description: string | null = null,
): ParsedLink {
  return { url, title, createdAt: seconds === null ? null : new Date(seconds * 1000).toISOString(), tags, description };
}

describe('parseNetscapeBookmarks on browser exports', () => {
  it('reads a Chrome export: bar, nested folders, Other bookmarks at the top level, odd characters', () => {
    const { folders, skipped } = parseFixture('chrome');
    expect(folders).toEqual([
      {
        name: 'Bookmarks bar',
        links: [
          link('https://github.com/', 'GitHub', 1600000100),
          link('https://news.ycombinator.com/', 'https://news.ycombinator.com/', 1600000800),
        ],
      },
      // 'Bookmarks bar / Work' holds only folders, so it is not listed.
      {
        name: 'Bookmarks bar / Work / Clients',
        nested: true,
        links: [
          link('https://acme.example.com/report?q=1&view=full', 'Acme & Sons "Q3" report', 1600000500),
          link('https://example.jp/%E8%B3%87%E6%96%99', '日本語のページ\u3000資料', 1600000600),
        ],
      },
      { name: 'Bookmarks bar / Work / Archive', nested: true, links: [] },
      {
        name: 'Imported bookmarks',
        links: [link('https://developer.mozilla.org/en-US/', 'MDN Web Docs 🦊', 1600000900)],
      },
      {
        name: 'קריאה',
        links: [link('https://he.wikipedia.org/wiki/%D7%A2%D7%91%D7%A8%D7%99%D7%AA', 'עברית – ויקיפדיה', 1600001100)],
      },
    ]);
    expect(skipped).toEqual([
      {
        title: 'Save to Wayback',
        url: "javascript:(function(){window.open('https://web.archive.org/save/'+location.href)})();",
        reason: 'not-http',
      },
      { title: 'Settings', url: 'chrome://settings/', reason: 'not-http' },
    ]);
  });

  it('reads a Firefox export: menu links under the H1, toolbar with a description, place: queries, tags', () => {
    const { folders, skipped } = parseFixture('firefox');
    expect(folders.map((f) => [f.name, f.links.length])).toEqual([
      ['Mozilla Firefox', 2],
      ['Bookmarks Menu', 1],
      ['Bookmarks Toolbar', 1],
      ['Bookmarks Toolbar / Untitled folder', 1],
      ['Other Bookmarks', 1],
    ]);
    expect(folders[0]?.links[0]).toEqual(
      link('https://support.mozilla.org/en-US/products/firefox', 'Get Help', 1690000010),
    );
    expect(folders[1]?.links).toEqual([
      link(
        'https://www.rust-lang.org/',
        'Rust Programming Language',
        1690001000,
        ['rust', 'programming', 'lang'],
        'A language empowering everyone\nto build reliable & efficient software.',
      ),
    ]);
    // The toolbar's own <DD> describes the folder, not a link.
    expect(folders[2]?.links).toEqual([
      link('https://www.openstreetmap.org/#map=12/52.5200/13.4050', 'OpenStreetMap <Berlin>', 1690003020, [
        'maps',
        'berlin',
      ]),
    ]);
    // ADD_DATE in milliseconds, then in microseconds: both read to the second.
    expect(folders[3]?.links).toEqual([link("https://example.org/it's-a-test", "It's a test", 1690003110)]);
    expect(folders[4]?.links).toEqual([link('https://blog.example.net/posts/1', 'Multi line title', 1690004020)]);
    expect(skipped).toEqual([
      { title: 'Most Visited', url: 'place:sort=8&maxResults=10', reason: 'not-http' },
      { title: 'Recent Tags', url: 'place:type=6&sort=14&maxResults=10', reason: 'not-http' },
      { title: 'notes.html', url: 'file:///home/me/notes.html', reason: 'not-http' },
    ]);
  });

  it('reads a Safari export: top-level folders outside any <DL>, no dates', () => {
    const { folders, skipped } = parseFixture('safari');
    expect(folders).toEqual([
      {
        name: 'Favorites',
        links: [link('https://www.apple.com/', 'Apple', null), link('https://www.icloud.com/', 'iCloud', null)],
      },
      {
        name: 'Favorites / News & Blogs',
        nested: true,
        links: [link('https://daringfireball.net/', 'Daring Fireball', null)],
      },
      { name: 'BookmarksBar', links: [link('https://www.wikipedia.org/', 'Wikipedia', null)] },
      { name: 'BookmarksMenu', links: [] },
      { name: 'Imported bookmarks', links: [link('https://maps.apple.com/', 'Maps', null)] },
      { name: 'Reading List', links: [link('https://www.example.com/long-read', 'The “Long” Read', null)] },
    ]);
    expect(skipped).toEqual([
      { title: 'Zoom', url: 'javascript:void(document.body.style.zoom=1.5)', reason: 'not-http' },
    ]);
  });

  it('reads a Raindrop.io export: tags, descriptions, escaped text, data: URLs, a zero date', () => {
    const { folders, skipped } = parseFixture('raindrop');
    expect(folders).toEqual([
      {
        name: 'Design',
        links: [
          link(
            'https://www.figma.com/community',
            'Figma Community',
            1710000100,
            ['design', 'tools'],
            'Explore thousands of free files, plugins & widgets <3',
          ),
        ],
      },
      { name: 'Design / Inspiration ✨', nested: true, links: [link('https://dribbble.com/', 'Dribbble', 1710000300)] },
      {
        name: 'Unsorted',
        links: [
          link('https://example.com/a?utm_source=x&ref=%22q%22', 'A "quoted" <title> & more', 1710000500, [
            'Read later',
            '読む',
          ]),
          link('HTTPS://Example.COM/Upper', 'HTTPS://Example.COM/Upper', null),
        ],
      },
    ]);
    expect(skipped).toEqual([{ title: 'Hello data', url: 'data:text/plain;base64,SGVsbG8=', reason: 'not-http' }]);
  });
});
