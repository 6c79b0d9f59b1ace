/**
 * The page-metadata reader on pages written as real sites publish them (fixtures/pages): a news
 * article with Open Graph and a Yoast-style JSON-LD @graph, a GitHub repository page, a blog with
 * only JSON-LD, pages in windows-1252 and Shift_JIS, entities and CDATA, a relative og:image under
 * <base href>, broken JSON-LD, and a huge page whose head ends early.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HEAD_MAX_CHARS, readHead } from '../../supabase/functions/_shared/page-head.ts';
import { readPageMetadata } from '../../supabase/functions/_shared/page-metadata.ts';

const page = (name: string, url: string, charset: string | null = null) => ({
  url,
  charset,
  body: new Uint8Array(readFileSync(new URL(`./fixtures/pages/${name}`, import.meta.url))),
});
const utf8 = (html: string, url = 'https://site.example/page') => ({
  url,
  charset: 'utf-8',
  body: new TextEncoder().encode(html),
});

describe('the page-metadata reader', () => {
  it('takes Open Graph first on a news article, the icon nearest 64 px', () => {
    const article = 'https://www.dailycourier.example/news/2026/12/07/storm-darragh-power-cuts/';
    expect(readPageMetadata(page('news-article.html', article, 'utf-8'))).toEqual({
      title: 'Storm Darragh: Thousands without power as winds reach 90mph',
      description:
        'Power cuts hit homes across Wales and the West as the storm moves north, with more warnings in place for Sunday.',
      siteName: 'The Daily Courier',
      image: 'https://cdn.dailycourier.example/wp-content/uploads/2026/12/storm-darragh-1200x675.jpg',
      icon: 'https://cdn.dailycourier.example/wp-content/uploads/2024/01/cropped-favicon-180x180.png',
    });
  });

  it('reads a GitHub repository page: og values, a PNG icon instead of the SVG, not the body', () => {
    expect(readPageMetadata(page('github-repo.html', 'https://github.com/linkboard/linkboard'))).toEqual({
      title: 'GitHub - linkboard/linkboard: An offline-first bookmark manager for teams',
      description:
        'An offline-first bookmark manager for teams. Contribute to linkboard/linkboard development by creating an account on GitHub.',
      siteName: 'GitHub',
      image:
        'https://opengraph.githubassets.com/6f1c0e0d7e8b3b0a2f1c9d3e2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2/linkboard/linkboard',
      icon: 'https://github.githubassets.com/favicons/favicon.png',
    });
  });

  it('takes JSON-LD before the HTML: headline, description, the first image, the publisher by @id', () => {
    expect(readPageMetadata(page('blog-json-ld.html', 'https://notes.example/2026/postgres'))).toEqual({
      title: 'Why we moved to Postgres',
      description: 'Three years on MongoDB, one migration weekend, and what we would do again.',
      siteName: 'Field Notes Publishing',
      image: 'https://notes.example/images/postgres-16x9.jpg',
      icon: 'https://notes.example/icons/touch-76.png',
    });
  });

  it('takes Twitter cards after Open Graph and before JSON-LD', () => {
    const html = `<html><head><title>HTML</title>
      <meta name="twitter:title" content="Twitter"><meta name="twitter:description" content="Twitter says">
      <meta name="twitter:image:src" content="/card.png">
      <script type="application/ld+json">{"@type":"Article","headline":"JSON-LD","description":"LD","image":"/ld.png"}</script>
      </head></html>`;
    expect(readPageMetadata(utf8(html))).toMatchObject({
      title: 'Twitter',
      description: 'Twitter says',
      image: 'https://site.example/card.png',
      siteName: null,
      icon: 'https://site.example/favicon.ico',
    });
  });

  it('decodes a windows-1252 page that says so in a meta, and one that does not say', () => {
    const expected = 'Café crème ’s €5 — Menú';
    expect(readPageMetadata(page('windows-1252.html', 'http://old.example/')).title).toBe(expected);
    expect(readPageMetadata(page('windows-1252-undeclared.html', 'http://old.example/')).title).toBe(expected);
    // The header's charset comes before the page's own.
    expect(readPageMetadata(page('windows-1252.html', 'http://old.example/', 'utf-8')).title).not.toBe(expected);
  });

  it('decodes a Shift_JIS page', () => {
    expect(readPageMetadata(page('shift-jis.html', 'https://jp.example/'))).toMatchObject({
      title: '日本語のページ ｜ テスト',
      description: '文字コードのテストです。',
    });
  });

  it('decodes entities once, ignores CDATA, comments and scripts, collapses whitespace, cleans NUL and halves', () => {
    const result = readPageMetadata(page('entities-cdata.html', 'https://cafe.example/menu'));
    expect(result).toEqual({
      title: "Tom & Jerry's “Café” — <Menu> 🍵 \ufffd \ufffd",
      description: 'Fish &amp; chips, "mushy" peas and tea.',
      siteName: "Tom & Jerry's café \ufffd",
      image: null,
      icon: 'https://cafe.example/favicon.ico',
    });
  });

  it('resolves a relative og:image and icons against <base href> and the final URL; only http(s)', () => {
    const result = readPageMetadata(page('relative-image.html', 'https://shop.example/catalogue/spring?ref=mail'));
    expect(result).toMatchObject({
      image: 'https://shop.example/static/img/cover.jpg?w=1200&h=630',
      icon: 'https://shop.example/static/favicon-96.png',
    });
  });

  it('skips broken JSON-LD and reads the next script', () => {
    expect(readPageMetadata(page('broken-json-ld.html', 'https://acme.example/pricing'))).toEqual({
      title: 'Acme Team',
      description: 'Seats for the whole team.',
      siteName: null,
      image: 'https://acme.example/team.png',
      icon: 'https://acme.example/favicon.ico',
    });
  });

  it('cuts the title and description to a saved link’s lengths without splitting an emoji', () => {
    const title = `${'a'.repeat(499)}😀 and more`;
    const result = readPageMetadata(
      utf8(`<head><title>${title}</title><meta name="description" content="${'d'.repeat(2500)}"></head>`),
    );
    expect(result.title).toBe('a'.repeat(499));
    expect(result.description).toHaveLength(2000);
  });

  it('gives nulls and the default icon for a page that says nothing', () => {
    expect(readPageMetadata(utf8('', 'http://bare.example/a/b'))).toEqual({
      title: null,
      description: null,
      siteName: null,
      image: null,
      icon: 'http://bare.example/favicon.ico',
    });
  });
});

describe('the head reader stops early', () => {
  it('after </head>: what the body says is not read, nor the rest of the page', () => {
    const head = '<html><head><title>Huge page</title></head>';
    const body = `<body><meta property="og:title" content="In the body"><script type="application/ld+json">{"@type":"Article","headline":"In the body"}</script>${'<p>filler paragraph</p>'.repeat(100_000)}</body></html>`;
    const chunks = [head, ...Array.from({ length: 100 }, (_, i) => body.slice(i * 23_000, (i + 1) * 23_000))];
    let pulled = 0;
    const result = readHead(
      (function* () {
        for (const chunk of chunks) {
          pulled++;
          yield chunk;
        }
      })(),
    );
    expect(result.title).toBe('Huge page');
    expect(result.meta.size).toBe(0);
    expect(result.jsonLd).toEqual([]);
    expect(pulled).toBe(1);
    // And through the whole reader, on a 2 MB page: the body's og:title never wins over <title>.
    expect(readPageMetadata(utf8(head + body)).title).toBe('Huge page');
  });

  it('at the cap when the head never ends', () => {
    let pulled = 0;
    const endless = (function* () {
      yield '<html><head><title>No end</title>';
      for (;;) {
        pulled++;
        yield '<meta name="x" content="y">'.repeat(1000);
      }
    })();
    expect(readHead(endless).title).toBe('No end');
    expect(pulled * 27_000).toBeLessThan(HEAD_MAX_CHARS + 27_000);
  });
});
