/**
 * The plain addresses' key (plainIdentity) is made without the URL parser: it must be exactly
 * what the parser and normalize-url make (parsedIdentity) for every address it takes, and it
 * must leave every other one to them.
 */
import { describe, expect, it } from 'vitest';
import { linkIdentity, parsedIdentity, plainIdentity } from '../../src/domain/link-identity.ts';
import { plainParts } from '../../src/domain/plain-url.ts';
import { MAX_WORD_LENGTH, fold, linkWords, wordsOf } from '../../src/domain/search-words.ts';

/** A small deterministic generator (the same addresses on every run). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const HOST_PARTS = [
  'www',
  'www.www',
  'example',
  'a',
  'x-y',
  '-z',
  'b2',
  '0x1f',
  '127',
  'xn--bcher-kva',
  'EXAMPLE',
  'ex_ample',
  'org',
  'com',
  'io',
  '1',
  '',
];
const PATH_CHARS = [
  'a',
  'Z',
  '0',
  '-',
  '.',
  '_',
  '~',
  '!',
  '$',
  '&',
  "'",
  '(',
  ')',
  '*',
  '+',
  ',',
  ';',
  '=',
  ':',
  '@',
  '/',
  '%',
  '%41',
  '?',
  '#',
  ' ',
  'é',
  '\\',
  '|',
  '^',
  '`',
  '{',
  '"',
  '<',
];

function address(next: () => number): string {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const scheme = next() < 0.8 ? pick(['https://', 'http://']) : pick(['HTTP://', '', 'ftp://', ' https://']);
  const labels = Array.from({ length: 1 + Math.floor(next() * 3) }, () =>
    next() < 0.6 ? pick(['www', 'example', 'org', 'a-b']) : pick(HOST_PARTS),
  );
  const port = next() < 0.05 ? ':8080' : next() < 0.05 ? ':443' : '';
  let path = '';
  const length = Math.floor(next() * 12);
  for (let i = 0; i < length; i++) {
    path += next() < 0.25 ? '/' : next() < 0.9 ? pick(PATH_CHARS.slice(0, 20)) : pick(PATH_CHARS);
  }
  if (path !== '' && !path.startsWith('/') && next() < 0.8) path = `/${path}`;
  return `${scheme}${labels.join('.')}${port}${path}`;
}

describe('plainIdentity', () => {
  it('gives the parser’s key for every plain address, and leaves the rest to it', () => {
    const next = random(36);
    let plain = 0;
    for (let i = 0; i < 20_000; i++) {
      const url = address(next);
      const fast = plainIdentity(url);
      if (fast === undefined) continue;
      plain += 1;
      expect([url, fast]).toEqual([url, parsedIdentity(url)]);
    }
    // The generator reaches both sides.
    expect(plain).toBeGreaterThan(2_000);
    expect(plain).toBeLessThan(20_000);
  });

  it('takes the usual shapes: a trailing slash, www., http', () => {
    const cases: [string, string][] = [
      ['https://example.org/', 'https://example.org'],
      ['https://example.org', 'https://example.org'],
      ['http://www.example.org/a/b/', 'https://example.org/a/b'],
      ['https://www.www.example.org/a', 'https://www.www.example.org/a'],
      ['https://sub.example.co.uk/a-b_c~d/e.html', 'https://sub.example.co.uk/a-b_c~d/e.html'],
    ];
    for (const [url, key] of cases) {
      expect(plainIdentity(url)).toBe(key);
      expect(parsedIdentity(url)).toBe(key);
      expect(linkIdentity(url)).toBe(key);
    }
  });

  it('leaves to the parser what it would change otherwise', () => {
    for (const url of [
      'https://Example.org/a',
      'https://example.org/a//b',
      'https://example.org/a/../b',
      'https://example.org/./b',
      'https://example.org/a%20b',
      'https://example.org/a?b=1',
      'https://example.org/a#b',
      'https://example.org:8080/a',
      'https://user@example.org/a',
      'https://127.0.0.1/a',
      'https://xn--bcher-kva.example/a',
      'example.org/a',
      ` https://example.org/${'a'.repeat(2048)}`,
    ]) {
      expect(plainIdentity(url)).toBeUndefined();
    }
  });
});

describe('words of plain text and addresses', () => {
  it('are the words the URL parser and Unicode folding give', () => {
    const next = random(7);
    const unicodeWords = (text: string) =>
      fold(text)
        .split(/[^\p{L}\p{N}]+/u)
        .filter((word) => word !== '')
        .map((word) => word.slice(0, MAX_WORD_LENGTH));
    let plain = 0;
    for (let i = 0; i < 5_000; i++) {
      const url = address(next);
      expect(wordsOf(url)).toEqual(unicodeWords(url));
      if (!plainParts(url)) continue;
      plain += 1;
      const parsed = new URL(url);
      const noise = new Set(['http', 'https', 'www', 'com', 'org', 'net', 'html', 'htm', 'php']);
      const expected = [...unicodeWords(parsed.hostname), ...unicodeWords(decodeURIComponent(parsed.pathname))];
      expect([url, linkWords({ url })]).toEqual([
        url,
        [...new Set(expected.filter((word) => !noise.has(word)))].slice(0, 16),
      ]);
    }
    expect(plain).toBeGreaterThan(500);
    expect(wordsOf('Crème-brûlée 2 ÉCLAIR')).toEqual(['creme', 'brulee', '2', 'eclair']);
    expect(wordsOf(`Page ${'x'.repeat(40)} Two`)).toEqual(['page', 'x'.repeat(MAX_WORD_LENGTH), 'two']);
  });
});
