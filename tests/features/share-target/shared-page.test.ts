import { describe, expect, it } from 'vitest';
import { firstHttpUrl, sharedPage } from '../../../src/features/links/share-target/shared-page.ts';

const shared = (query: string) => sharedPage(new URLSearchParams(query));

describe('a page shared into the app', () => {
  it('takes url and title as given', () => {
    expect(shared('url=https://a.example/x&title=A%20page&text=ignored')).toEqual({
      url: 'https://a.example/x',
      title: 'A page',
    });
  });

  it('finds the url in the text when there is no url, and titles it with the rest of the text', () => {
    expect(shared(`text=${encodeURIComponent('Worth a read - https://news.example/a?b=1.')}`)).toEqual({
      url: 'https://news.example/a?b=1',
      title: 'Worth a read',
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
    });
    expect(shared(`text=${encodeURIComponent('https://only.example/path')}`).title).toBe('only.example');
  });

  it('keeps text without a url as the title and leaves the url empty', () => {
    expect(shared('text=just%20words')).toEqual({ url: '', title: 'just words' });
    expect(shared('')).toEqual({ url: '', title: '' });
  });

  it('ends a url in text at sentence punctuation, keeping parentheses that belong to it', () => {
    expect(firstHttpUrl('see https://en.wikipedia.org/wiki/Bell_(band)).')).toBe(
      'https://en.wikipedia.org/wiki/Bell_(band)',
    );
    expect(firstHttpUrl('(https://a.example/x)')).toBe('https://a.example/x');
    expect(firstHttpUrl('ftp://a.example/x and no web link')).toBeNull();
  });
});
