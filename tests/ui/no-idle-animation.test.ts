/**
 * Nothing animates while the app waits for a click. A running CSS transition or
 * animation keeps the compositor producing frames, and the frame that shows a click's change then
 * waits for the next vsync tick instead of being drawn at once: a hover colour transition on the
 * buttons put add link → painted at 16 ms median, 11 ms without it (npm run bench, 30 samples).
 * e2e/links.spec.ts checks the real page (document.getAnimations() under the pointer).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(tsx?|css)$/.test(entry.name) ? [path] : [];
  });
}

/** Each quoted or template string of the app's sources, with its file. */
const strings = sources(join(root, 'src')).flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(/'[^'\n]*'|"[^"\n]*"|`[^`]*`/g)].map((match) => ({
    file: relative(root, file),
    text: match[0],
  })),
);

/** Animations that run only while there is nothing to click yet: loading placeholders. */
const loadingOnly = [
  'src/ui/loading-screen.tsx',
  'src/features/dashboard/dashboard-skeleton.tsx',
  'src/features/links/directory-grid.tsx',
  'src/features/links/directory-view.tsx',
  'src/features/links/link-collection.tsx',
];

/** Transitions a click starts (a switch's thumb, the sidebar's width), never a hover. */
const clickOnly = [
  'src/app/shell/app-shell.tsx',
  'src/features/profile/push-reminders-section.tsx',
  'src/features/calendar/event-dialog.tsx',
];

const transition = /(^|[\s'"`])transition(-[\w[\]-]+)?(?=[\s'"`]|$)/;

describe('idle animations', () => {
  it('finds the class names it checks', () => {
    expect(strings.some(({ text }) => text.includes('hover:'))).toBe(true);
  });

  it('gives no hover style a transition', () => {
    const found = strings
      .filter(({ text }) => transition.test(text))
      .filter(({ file, text }) => !clickOnly.includes(file) || /(^|[\s'"`])hover:/.test(text))
      .map(({ file, text }) => `${file}: ${text}`);
    expect(found).toEqual([]);
  });

  it('animates only loading placeholders', () => {
    const found = strings
      .filter(({ text }) => /(^|[\s'"`])animate-(?!none)[\w-]+/.test(text))
      .filter(({ file }) => !loadingOnly.includes(file))
      .map(({ file, text }) => `${file}: ${text}`);
    expect(found).toEqual([]);
  });
});
