import { gradientOf } from '../../../src/ui/directory-colors.ts';
import { describe, expect, it } from 'vitest';
import type { DirectoryRow } from '../../../src/data/rows.ts';
import { makeDirectory, makeLink } from '../../support/builders.ts';
import {
  directoryBadge,
  linkCountLabel,
  matchesDirectory,
  matchesLink,
  searchCapText,
  searchList,
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

  it('searches links by the start of a word of the title, url, tags or notes', () => {
    expect(matchesLink(link, 'docs')).toBe(true);
    expect(matchesLink(link, 'DO')).toBe(true);
    expect(matchesLink(link, 'example.com')).toBe(true);
    expect(matchesLink(link, 'https://example.com/docs')).toBe(true);
    expect(matchesLink(link, 'refer api')).toBe(true);
    expect(matchesLink(link, 'nope')).toBe(false);
    // Inside a word is not a match (it was, before the token index).
    expect(matchesLink(link, 'ocs')).toBe(false);
    expect(matchesLink(makeLink({ title: 'Link number 17319' }), '7319')).toBe(false);
    expect(matchesLink(makeLink({ title: 'Link number 17319' }), '1731')).toBe(true);
    expect(matchesLink(makeLink({ title: 'x', notes: 'Bring the Crème brûlée' }), 'creme bru')).toBe(true);
    // Every word must be found.
    expect(matchesLink(link, 'docs nope')).toBe(false);
  });

  it('lists matches with the longest word typed exactly first, newest first, then longer words', () => {
    const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString();
    const rows = [
      makeLink({ title: 'React router', created_at: at(1) }),
      makeLink({ title: 'Reading list', created_at: at(2) }),
      makeLink({ title: 'React hooks', created_at: at(3) }),
      makeLink({ title: 'Ready', created_at: at(4) }),
      makeLink({ title: 'Unrelated', created_at: at(5) }),
    ];
    expect(searchList(rows, 'react').map((row) => row.title)).toEqual(['React hooks', 'React router']);
    expect(searchList(rows, 'rea').map((row) => row.title)).toEqual([
      'React hooks',
      'React router',
      'Reading list',
      'Ready',
    ]);
    expect(searchList(rows, 'read').map((row) => row.title)).toEqual(['Reading list', 'Ready']);
    expect(searchList(rows, 'hooks rea').map((row) => row.title)).toEqual(['React hooks']);
  });

  it('says how many a capped search shows', () => {
    expect(searchCapText(200)).toBe('Showing the first 200 matches. Type more to narrow the search.');
  });
});
