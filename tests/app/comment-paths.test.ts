/**
 * A comment that names a file sends the reader there: each file a comment of the app, the worker
 * or the local stack names must exist (a path from the repository's root exactly, a bare file
 * name somewhere in it).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const sourceRoots = [
  'src',
  'sync-worker',
  'supabase/local',
  'supabase/functions',
  'vite.config.ts',
  'eslint.config.js',
];
const repositoryRoots = ['src', 'sync-worker', 'supabase', 'tests', 'e2e', 'docs', '.ci'];

function filesUnder(path: string): string[] {
  try {
    return readdirSync(join(root, path), { recursive: true, encoding: 'utf8' }).map((file) => `${path}/${file}`);
  } catch {
    return [path];
  }
}

const topLevel = readdirSync(root).filter((name) => /\.(ts|js|json)$/.test(name));
const repositoryFiles = new Set([...topLevel, ...repositoryRoots.flatMap(filesUnder)]);
const baseNames = new Set([...repositoryFiles].map((file) => file.split('/').at(-1)));
const sources = sourceRoots.flatMap(filesUnder).filter((file) => /\.(tsx?|js)$/.test(file));

/** The comment text of a line: after `//`, or the line itself inside a block comment. */
function commentOf(line: string): string | null {
  const trimmed = line.trim();
  if (trimmed.startsWith('*') || trimmed.startsWith('/*')) return trimmed;
  const at = line.indexOf('// ');
  return at >= 0 ? line.slice(at) : null;
}

const rooted = /\b(?:src|docs|supabase|tests|e2e|sync-worker)\/[\w./*-]+\.(?:tsx?|md|sql|js)\b/g;
const bare = /(?<![\w/.*>-])[\w-]+(?:\.[\w-]+)*\.tsx?\b/g;
const glob = (pattern: string) => new RegExp(`^${pattern.replace(/[.]/g, '\\.').replace(/\*/g, '[^/]*')}$`);

it('names no file that does not exist in a comment', () => {
  const missing: string[] = [];
  for (const file of sources) {
    readFileSync(join(root, file), 'utf8')
      .split('\n')
      .forEach((line, index) => {
        const comment = commentOf(line);
        if (!comment) return;
        for (const [path] of comment.matchAll(rooted)) {
          const found = path.includes('*')
            ? [...repositoryFiles].some((f) => glob(path).test(f))
            : repositoryFiles.has(path);
          if (!found) missing.push(`${file}:${index + 1} ${path}`);
        }
        for (const [name] of comment.replace(rooted, '').matchAll(bare)) {
          if (!baseNames.has(name)) missing.push(`${file}:${index + 1} ${name}`);
        }
      });
  }
  expect(sources.length).toBeGreaterThan(100);
  expect(missing).toEqual([]);
});
