import { gradientOf } from '../../../src/ui/directory-colors.ts';
import { describe, expect, it } from 'vitest';
import type { DirectoryRow, LinkRow } from '../../../src/data/rows.ts';
import { makeDirectory, makeLink } from '../../support/builders.ts';
import {
  directoryBadge,
  linkCountLabel,
  matchesDirectory,
  linkMatcher,
  matchesLink,
  shortUrl,
} from '../../../src/features/links/link-filters.ts';

const dir = (fields: Partial<DirectoryRow>) => makeDirectory({ name: 'Work', description: 'Daily tools', ...fields });
const link = makeLink({ title: 'Docs', url: 'https://example.com/docs', tags: ['Reference', 'api'] });

describe('links screen helpers', () => {
  it('counts links as docs/product.md writes them', () => {
    expect(linkCountLabel(0)).toBe('0 links');
    expect(linkCountLabel(1)).toBe('1 link');
    expect(linkCountLabel(7)).toBe('7 links');
    // Grouped as every other number on screen (the import says '5,000'), in the device's locale.
    expect(linkCountLabel(12345)).toBe(`${new Intl.NumberFormat().format(12345)} links`);
    expect(linkCountLabel(12345)).not.toBe('12345 links');
  });

  it('shortens urls to 30 characters', () => {
    expect(shortUrl('https://a.example')).toBe('https://a.example');
    const long = 'https://example.com/a/very/long/path/indeed';
    expect(shortUrl(long)).toBe(`${long.slice(0, 30)}...`);
  });

  it('badges a directory Private, Public or Password Protected', () => {
    expect(directoryBadge(dir({}))).toBe('Private');
    expect(directoryBadge(dir({ is_public: true }))).toBe('Public');
    expect(directoryBadge(dir({ is_public: true, has_password: true }))).toBe('Password Protected');
  });

  it('falls back to blue for an unknown colour', () => {
    expect(gradientOf('green')).toContain('green');
    expect(gradientOf('teal')).toContain('blue');
    expect(gradientOf(null)).toContain('blue');
  });

  it('searches directories by name or description', () => {
    expect(matchesDirectory(dir({}), 'WORK')).toBe(true);
    expect(matchesDirectory(dir({}), 'tools')).toBe(true);
    expect(matchesDirectory(dir({ description: null }), 'tools')).toBe(false);
    expect(matchesDirectory(dir({}), '  ')).toBe(true);
  });

  it('searches links by title, url and tags', () => {
    expect(matchesLink(link, 'docs')).toBe(true);
    expect(matchesLink(link, 'example.com')).toBe(true);
    expect(matchesLink(link, 'reference')).toBe(true);
    expect(matchesLink(link, 'nope')).toBe(false);
  });

  it('matches as each field would, read once per query, never across two fields', () => {
    const rows = [
      link,
      makeLink({ title: 'ΟΔΟΣ Guide', url: 'https://x.test/A', tags: [] }),
      makeLink({ title: 'ab', url: 'cd', tags: ['Ef'] }),
    ];
    const perField = (row: LinkRow, query: string) => {
      const q = query.trim().toLowerCase();
      return [row.title, row.url, ...row.tags].some((field) => field.toLowerCase().includes(q));
    };
    for (const query of ['', '  DOCS ', 'api', 'οδος', 'x.test/a', 'bc', 'dE', 'ef', 'b\nc', 'ab\ncd']) {
      const matcher = linkMatcher(query);
      for (const row of rows) {
        expect(matcher(row), `${query} in ${row.title}`).toBe(query.trim() === '' || perField(row, query));
        expect(matcher(row)).toBe(matchesLink(row, query)); // again, from the kept text
      }
    }
  });
});
