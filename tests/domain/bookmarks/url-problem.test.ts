import { describe, expect, it } from 'vitest';
import { URL_MAX, urlProblem } from '../../../src/domain/bookmarks/url-problem.ts';

describe('urlProblem: the true reason a bookmark cannot be saved', () => {
  it('takes http and https URLs as written, up to 2,048 characters', () => {
    expect(URL_MAX).toBe(2048);
    const longest = `https://a.example/${'x'.repeat(URL_MAX - 18)}`;
    expect(longest).toHaveLength(URL_MAX);
    for (const url of ['https://a.example/', ' http://a.example/x?y=1#z ', 'HTTPS://Example.COM/Upper', longest]) {
      expect(urlProblem(url), url).toBeNull();
    }
  });

  it('an https URL over 2,048 characters is too long, not "not http(s)"', () => {
    expect(urlProblem(`https://a.example/${'x'.repeat(URL_MAX)}`)).toBe('too-long');
  });

  it('nothing there', () => {
    expect(urlProblem('')).toBe('empty');
    expect(urlProblem(' \t\n')).toBe('empty');
  });

  it('another scheme, or none', () => {
    for (const url of [
      'javascript:alert(1)',
      'data:text/html;base64,PGI+',
      'file:///C:/Users/me/notes.html',
      'place:sort=8&maxResults=10',
      'chrome://settings/',
      'ftp://files.example/',
      'mailto:me@example.com',
      '/relative/path',
      'example.com',
      `javascript:${'x'.repeat(3000)}`,
    ]) {
      expect(urlProblem(url), url).toBe('not-http');
    }
  });

  it('an http(s) URL that is not a URL the server can keep', () => {
    for (const url of [
      'https://',
      'http:///path-only',
      'https:example.com',
      'https://exa mple.com/',
      'https://a.example/with space',
      'https://a.example:99999/',
      'https://[::1/',
      'https://a.example/\u0000nul',
      'https://a.example/\u0007bell',
      'https://a.example/\ud800lone',
      'https://a.example/\udc00lone',
    ]) {
      expect(urlProblem(url), JSON.stringify(url)).toBe('invalid');
    }
    // A whole pair is a character like any other.
    expect(urlProblem('https://a.example/😀')).toBeNull();
  });
});
