import { describe, expect, it } from 'vitest';
import { formatCount, formatNumber } from '../../src/domain/number-format.ts';

describe('number-format', () => {
  it("groups digits as the locale does, the device's when none is given", () => {
    expect(formatNumber(1000, 'en-US')).toBe('1,000');
    expect(formatNumber(5000, 'en-US')).toBe('5,000');
    expect(formatNumber(1234567, 'de-DE')).toBe('1.234.567');
    expect(formatNumber(1234567, 'fr-FR')).toBe('1\u202f234\u202f567');
    expect(formatNumber(1000)).toBe(new Intl.NumberFormat().format(1000));
  });

  it('says a count with its word, singular for one only', () => {
    expect(formatCount(1, 'link', 'links', 'en-US')).toBe('1 link');
    expect(formatCount(0, 'link', 'links', 'en-US')).toBe('0 links');
    expect(formatCount(1000, 'link', undefined, 'en-US')).toBe('1,000 links');
    expect(formatCount(2, 'new directory', 'new directories', 'de-DE')).toBe('2 new directories');
    expect(formatCount(2048, 'character')).toBe(`${formatNumber(2048)} characters`);
  });
});
