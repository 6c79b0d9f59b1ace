/**
 * The dark theme's rule for class names (docs/architecture.md, Themes): neutral classes (slate,
 * bg-surface) turn by themselves, but a coloured tint or text needs its dark: pair in the same
 * class string, and a white surface is bg-surface. The accessibility journeys check the screens
 * they open with axe in both themes; this catches the class a journey does not reach.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const strings = sources(join(root, 'src')).flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(/'[^'\n]*'|"[^"\n]*"|`[^`]*`/g)].map((match) => ({
    file: relative(root, file),
    text: match[0],
  })),
);

const HUES = 'red|amber|emerald|sky|indigo|green|brand|blue|purple|pink|orange|yellow|rose|teal|violet|cyan|lime';
/** Tints (light backgrounds and borders) and coloured texts: what reads wrong on a dark surface. */
const NEEDS_PAIR = new RegExp(
  `(?<=^|[\\s'"\`])((?:[a-z-]+(?:-\\[[^\\]\\s]*\\])?:|\\[[^\\]\\s]*\\]:)*)` +
    `((?:bg|border|ring)-(?:${HUES})-(?:50|100|200|300)|text-(?:${HUES})-(?:600|700|800|900|950))(?=$|[\\s'"\`/])`,
  'g',
);

function unpaired(text: string): string[] {
  const missing: string[] = [];
  for (const match of text.matchAll(NEEDS_PAIR)) {
    const [token, prefix = '', utility = ''] = match;
    if (prefix.includes('dark:')) continue;
    const kind = utility.split('-')[0];
    const pair = new RegExp(`(^|[\\s'"\`])dark:${prefix.replace(/[[\]]/g, '\\$&')}${kind}-`);
    if (!pair.test(text)) missing.push(token);
  }
  return missing;
}

describe('class names in the dark theme', () => {
  it('finds an unpaired tint and accepts a paired one', () => {
    expect(unpaired("'bg-amber-50 text-amber-900'")).toEqual(['bg-amber-50', 'text-amber-900']);
    expect(unpaired("'bg-amber-50 dark:bg-amber-950/40 text-amber-900 dark:text-amber-100'")).toEqual([]);
    expect(unpaired("'hover:bg-red-50 dark:bg-red-950/40'")).toEqual(['hover:bg-red-50']);
    expect(unpaired("'bg-brand-600 text-white hover:bg-brand-700'")).toEqual([]);
  });

  it('every coloured tint or text has its dark: pair in the same class string', () => {
    const found = strings.flatMap(({ file, text }) => unpaired(text).map((token) => `${file}: ${token}`));
    expect(found).toEqual([]);
  });

  it('a white surface is bg-surface (white stays white only on a switch thumb)', () => {
    const found = strings
      .filter(({ text }) => /(^|[\s'"`:])(bg|to|from)-white(?=$|[\s'"`/])/.test(text))
      .filter(({ text }) => !/rounded-full bg-white shadow/.test(text))
      .map(({ file, text }) => `${file}: ${text.slice(0, 80)}`);
    expect(found).toEqual([]);
  });
});
