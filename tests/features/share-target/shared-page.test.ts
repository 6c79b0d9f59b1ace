import { describe, expect, it } from 'vitest';
import {
  firstHttpUrl,
  isNonWebUrl,
  ONLY_WEB_PAGES,
  sharedPage,
} from '../../../src/features/links/share-target/shared-page.ts';

const shared = (query: string) => sharedPage(new URLSearchParams(query));

describe('a page shared into the app', () => {
  it('takes url and title as given', () => {
    expect(shared('url=https://a.example/x&title=A%20page&text=ignored')).toEqual({
      url: 'https://a.example/x',
      title: 'A page',
      notes: '',
      refused: false,
    });
  });

  it('finds the url in the text when there is no url, and titles it with the rest of the text', () => {
    expect(shared(`text=${encodeURIComponent('Worth a read - https://news.example/a?b=1.')}`)).toEqual({
      url: 'https://news.example/a?b=1',
      title: 'Worth a read',
      notes: '',
      refused: false,
    });
  });

  it('drops what the url leaves behind in the text', () => {
    expect(shared(`text=${encodeURIComponent('Read (https://a.example/x) now.')}`).title).toBe('Read now.');
    expect(shared(`text=${encodeURIComponent('See https://a.example/x, then decide')}`).title).toBe('See then decide');
  });

  it("falls back to the url's host for the title", () => {
    expect(shared('url=https://blog.example.org/post/1')).toEqual({
      url: 'https://blog.example.org/post/1',
      title: 'blog.example.org',
      notes: '',
      refused: false,
    });
    expect(shared(`text=${encodeURIComponent('https://only.example/path')}`).title).toBe('only.example');
  });

  it('keeps text without a url as the title and leaves the url empty', () => {
    expect(shared('text=just%20words')).toEqual({ url: '', title: 'just words', notes: '', refused: false });
    expect(shared('')).toEqual({ url: '', title: '', notes: '', refused: false });
  });

  it('ends a url in text at sentence punctuation, keeping parentheses that belong to it', () => {
    expect(firstHttpUrl('see https://en.wikipedia.org/wiki/Bell_(band)).')).toBe(
      'https://en.wikipedia.org/wiki/Bell_(band)',
    );
    expect(firstHttpUrl('(https://a.example/x)')).toBe('https://a.example/x');
    expect(firstHttpUrl('ftp://a.example/x and no web link')).toBeNull();
  });

  it('takes the note (the selected text) as the notes, keeping its line breaks', () => {
    const query = new URLSearchParams({
      url: 'https://a.example/x',
      title: 'A page',
      note: '  First line\r\nsecond line   \n\n\n\nlast\t ',
    });
    expect(sharedPage(query)).toEqual({
      url: 'https://a.example/x',
      title: 'A page',
      notes: 'First line\nsecond line\n\nlast',
      refused: false,
    });
  });

  it('drops NUL characters and replaces lone surrogates, which the database cannot store', () => {
    const page = sharedPage(
      new URLSearchParams({
        url: 'https://a.example/x\u0000',
        title: 'Half \ud83d an emoji\u0000',
        note: 'a\u0000b \udc00 c 😀',
      }),
    );
    expect(page).toEqual({
      url: 'https://a.example/x',
      title: 'Half \ufffd an emoji',
      notes: 'ab \ufffd c 😀',
      refused: false,
    });
  });

  it('survives a NUL and a lone surrogate percent-encoded in the address itself', () => {
    // What a browser passes on: %00 decodes to NUL, %ED%A0%80 (a UTF-8 encoded surrogate) to U+FFFD.
    const page = shared('url=https%3A%2F%2Fa.example%2F&title=A%00B&note=x%ED%A0%80y');
    expect(page.title).toBe('AB');
    expect(page.notes).toBe('x\ufffd\ufffd\ufffdy');
  });

  it('cuts a very long selection to the notes limit (10,000) and a long title to 500, without halving an emoji', () => {
    const long = 'word '.repeat(5_000);
    expect(shared(`url=https://a.example/&note=${encodeURIComponent(long)}`).notes).toHaveLength(9_999);
    const emojis = '😀'.repeat(6_000);
    const notes = shared(`url=https://a.example/&note=${encodeURIComponent(emojis)}`).notes;
    expect(notes).toBe('😀'.repeat(5_000));
    const title = shared(`url=https://a.example/&title=${encodeURIComponent('t'.repeat(501) + '😀')}`).title;
    expect(title).toBe('t'.repeat(500));
    const split = shared(`url=https://a.example/&title=${encodeURIComponent('t'.repeat(499) + '😀')}`).title;
    expect(split).toBe('t'.repeat(499));
  });

  it("refuses a browser's own pages and local files, and says so", () => {
    for (const url of [
      'chrome://settings/',
      'file:///home/ada/notes.html',
      'about:blank',
      'data:text/html,<p>hi</p>',
      'javascript:alert(1)',
      'chrome-extension://abc/options.html',
      'view-source:https://a.example/',
      'FILE:///C:/x.html',
    ]) {
      expect(shared(`url=${encodeURIComponent(url)}&title=x`).refused, url).toBe(true);
    }
    expect(ONLY_WEB_PAGES).toBe('Only web pages (http or https) can be saved.');
  });

  it('accepts web pages, a host with a port and an address without a scheme', () => {
    for (const url of ['https://a.example/', 'HTTP://a.example/x', 'localhost:5173/x', 'a.example/x', '']) {
      expect(isNonWebUrl(url), url).toBe(false);
    }
  });
});
