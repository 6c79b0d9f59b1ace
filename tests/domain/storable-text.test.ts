import { describe, expect, it } from 'vitest';
import {
  cutText,
  findUnstorableText,
  isStorableText,
  textFault,
  unstorableTextMessage,
} from '../../src/domain/storable-text.ts';

describe('text the database can store', () => {
  it('refuses a NUL character and a lone surrogate of either half, and keeps whole pairs', () => {
    const cases: [string, ReturnType<typeof textFault>][] = [
      ['plain', null],
      ['ÿ€ and 😀 and 𝄞 and \u202e', null],
      ['', null],
      ['a\u0000b', 'nul'],
      ['\u0000', 'nul'],
      ['cut \ud83d', 'surrogate'],
      ['\ud83d at the start', 'surrogate'],
      ['low alone \ude00 here', 'surrogate'],
      ['reversed \ude00\ud83d', 'surrogate'],
      ['two highs \ud83d\ud83d\ude00', 'surrogate'],
    ];
    for (const [text, fault] of cases) {
      expect({ text, fault: textFault(text) }).toEqual({ text, fault });
      expect(isStorableText(text)).toBe(fault === null);
    }
  });

  it('finds it anywhere in a JSON value, keys too, and names where', () => {
    expect(findUnstorableText({ a: ['ok', { b: 'x\u0000' }] })).toEqual({ path: 'a.1.b', fault: 'nul' });
    expect(findUnstorableText({ ['k\ud800']: 1 })).toEqual({ path: 'k\ud800', fault: 'surrogate' });
    expect(findUnstorableText('\ud800')).toEqual({ path: '', fault: 'surrogate' });
    expect(findUnstorableText({ a: [1, true, null, 'fine 😀'] })).toBeNull();
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findUnstorableText(deep)?.fault).toBe('nul');
  });

  it('says which field, in plain words', () => {
    expect(unstorableTextMessage('occurrences.3.title')).toBe(
      'A character in title cannot be saved (a null character or half of an emoji). Remove it and try again.',
    );
    expect(unstorableTextMessage('user_email')).toMatch(/^A character in user email cannot be saved/);
    expect(unstorableTextMessage('')).toMatch(/^A character in this text cannot be saved/);
  });

  it('cuts text to a length without cutting an emoji in half', () => {
    expect(cutText('ab😀', 3)).toBe('ab');
    expect(cutText('ab😀', 4)).toBe('ab😀');
    expect(cutText('abc', 2)).toBe('ab');
    expect(isStorableText(cutText('😀'.repeat(3000), 4000))).toBe(true);
  });
});
