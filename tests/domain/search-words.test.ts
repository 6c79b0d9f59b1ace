import { describe, expect, it } from 'vitest';
import {
  leadingWord,
  linkWords,
  MAX_WORD_LENGTH,
  MAX_WORDS,
  newestKey,
  searchOrder,
  searchWords,
  wordsOf,
} from '../../src/domain/search-words.ts';

describe('the words of a link', () => {
  it('folds case and accents and splits on everything but letters and digits', () => {
    expect(wordsOf('Crème-Brûlée, 2 ways!')).toEqual(['creme', 'brulee', '2', 'ways']);
    expect(wordsOf('ΟΔΟΣ Straße İstanbul')).toEqual(['οδος', 'straße', 'istanbul']);
    expect(wordsOf('snake_case and dot.separated')).toEqual(['snake', 'case', 'and', 'dot', 'separated']);
    expect(wordsOf('   ')).toEqual([]);
    expect(wordsOf('東京タワー 2026')).toEqual(['東京タワー', '2026']);
  });

  it('drops NUL, other controls and lone surrogates (the server may send them)', () => {
    expect(wordsOf('a\u0000b\u0007c')).toEqual(['a', 'b', 'c']);
    expect(wordsOf('half \uD83D here')).toEqual(['half', 'here']);
    expect(wordsOf('emoji 🎉 ok')).toEqual(['emoji', 'ok']);
  });

  it('cuts a long word to its first characters', () => {
    const long = 'x'.repeat(100);
    expect(wordsOf(long)).toEqual(['x'.repeat(MAX_WORD_LENGTH)]);
  });

  it("reads the title, tags, the address's host and path, and the notes, each word once", () => {
    expect(
      linkWords({
        title: 'Deno Manual',
        tags: ['Docs', 'deno'],
        url: 'https://www.docs.deno.com/runtime/manual%20intro?utm_source=x#top',
        notes: 'Read later',
      }),
    ).toEqual(['deno', 'manual', 'docs', 'runtime', 'intro', 'read', 'later']);
  });

  it('reads odd addresses and damaged fields without failing', () => {
    expect(linkWords({ title: '', url: 'http://192.168.0.1:8080/admin' })).toEqual(['192', '168', '0', '1', 'admin']);
    expect(linkWords({ title: '', url: 'https://xn--bcher-kva.example/' })).toEqual(['xn', 'bcher', 'kva', 'example']);
    expect(linkWords({ title: '', url: 'http://[::1]/x' })).toEqual(['1', 'x']);
    expect(linkWords({ title: '', url: 'not a url/%E0%A4%A' })).toEqual(['not', 'a', 'url', 'e0', 'a4']);
    expect(linkWords({ title: '', url: 'https://bad.example/%E0%A4%A' })).toEqual(['bad', 'example', 'e0', 'a4', 'a']);
    expect(linkWords({ title: null, url: 42, tags: [1, 'ok'], notes: {} })).toEqual(['ok']);
  });

  it(`keeps at most ${MAX_WORDS} words, the title's first`, () => {
    const title = Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ');
    const words = linkWords({ title, url: 'https://example.com', tags: ['tag'] });
    expect(words).toHaveLength(MAX_WORDS);
    expect(words[0]).toBe('w0');
    expect(words).not.toContain('tag');
  });
});

describe('the words of a search', () => {
  it("are folded, once each, without an address's http, www or com", () => {
    expect(searchWords('  Crème  crème ')).toEqual(['creme']);
    expect(searchWords('https://www.github.com/deno')).toEqual(['github', 'deno']);
    expect(searchWords('.com')).toEqual(['com']);
    expect(searchWords('www')).toEqual(['www']);
    expect(searchWords('')).toEqual([]);
  });

  it('are read by the longest, the first of equals', () => {
    expect(leadingWord(['ab', 'abcd', 'xyzw'])).toBe('abcd');
  });

  it('order links newest first within a word, the exact word before longer ones', () => {
    const older = newestKey('2026-01-01T00:00:00Z');
    const newer = newestKey('2026-06-01T00:00:00Z');
    expect(newer < older).toBe(true);
    expect(newestKey('garbage') > older).toBe(true);
    expect(newestKey(null)).toHaveLength(9);
    const exactOld = searchOrder(['rea'], '2026-01-01T00:00:00Z', ['rea'])!;
    const longerNew = searchOrder(['react'], '2026-06-01T00:00:00Z', ['rea'])!;
    expect(exactOld < longerNew).toBe(true);
    expect(searchOrder(['react'], '2026-06-01T00:00:00Z', ['rea', 'x'])).toBeNull();
  });
});
