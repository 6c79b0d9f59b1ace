import { describe, expect, it } from 'vitest';
import { clean, fold, queryWords, rank, search, type PaletteEntry } from '../../../src/features/palette/matcher.ts';

const entry = (title: string, rest = ''): Pick<PaletteEntry, 'key' | 'rest'> & { title: string } => ({
  title,
  key: fold(title),
  rest: fold(rest),
});

describe('the palette matcher', () => {
  it('folds case and accents', () => {
    expect(fold('Éclair CAFÉ Ångström naïve')).toBe('eclair cafe angstrom naive');
    expect(search([entry('Crème brûlée')], queryWords('creme BRULEE'), 8)).toHaveLength(1);
    expect(search([entry('creme brulee')], queryWords('Crème'), 8)).toHaveLength(1);
  });

  it('reads titles with NUL characters and lone surrogates without throwing, and still finds their words', () => {
    const broken = entry('Notes\u0000 from \uD800the\uDFFF trip');
    expect(clean('a\u0000b')).toBe('a b');
    expect(clean('x\uD800y')).toBe('x\uFFFDy');
    expect(clean('\uD83D\uDE00')).toBe('\uD83D\uDE00');
    expect(search([broken], queryWords('trip'), 8)).toHaveLength(1);
    expect(search([broken], queryWords('from the'), 8)).toHaveLength(1);
    expect(queryWords('\u0000\uD800')).toEqual(['\uFFFD']);
  });

  it('gives the first entries for an empty or blank query', () => {
    const entries = ['a', 'b', 'c', 'd'].map((title) => entry(title));
    expect(queryWords('   ')).toEqual([]);
    expect(search(entries, queryWords(''), 2).map((e) => e.title)).toEqual(['a', 'b']);
  });

  it('needs every word, in the title or the rest (url, host, description)', () => {
    const link = entry('Deno manual', 'https://docs.deno.com/runtime runtime docs');
    expect(rank(link, queryWords('deno docs'))).toBeGreaterThanOrEqual(0);
    expect(rank(link, queryWords('deno python'))).toBe(-1);
    expect(search([link], queryWords('docs.deno'), 8)).toHaveLength(1);
  });

  it('ranks a title starting with the word, then a word of the title, then inside a word, then the rest', () => {
    const entries = [entry('Other', 'plan in the notes'), entry('Replanning'), entry('Our plan'), entry('Plan B')];
    expect(search(entries, queryWords('plan'), 8).map((e) => e.title)).toEqual([
      'Plan B',
      'Our plan',
      'Replanning',
      'Other',
    ]);
  });

  it('keeps only the best few, ties in the index order', () => {
    const entries = Array.from({ length: 50 }, (_, i) => entry(`item ${i}`));
    entries.push(entry('best'));
    const found = search(entries, queryWords('item'), 3);
    expect(found.map((e) => e.title)).toEqual(['item 0', 'item 1', 'item 2']);
    expect(search([...entries, entry('itemised')], queryWords('it'), 1).map((e) => e.title)).toEqual(['item 0']);
  });
});

describe('the palette matcher, for actions', () => {
  it('finds an action only by the start of its words', () => {
    expect(search([entry('Create Event')], queryWords('eat'), 8, true)).toEqual([]);
    expect(search([entry('Create Event')], queryWords('eat'), 8)).toHaveLength(1);
    expect(search([entry('Create Event')], queryWords('cre ev'), 8, true)).toHaveLength(1);
    expect(search([entry('Sign out', 'log out logout')], queryWords('logo'), 8, true)).toHaveLength(1);
  });
});
