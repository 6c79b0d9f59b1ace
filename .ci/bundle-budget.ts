/**
 * Bundle budgets of docs/bench.md: the gzipped JS a browser loads for the landing
 * page and for the signed-in dashboard, from Vite's build manifest (each screen's chunk
 * plus everything it imports statically).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

interface Chunk {
  file: string;
  name?: string;
  imports?: string[];
}

const manifest = JSON.parse(readFileSync('dist/.vite/manifest.json', 'utf8')) as Record<string, Chunk>;

function closure(entries: string[]): Set<string> {
  const files = new Set<string>();
  const visit = (key: string) => {
    // 'chunk:<name>': a shared chunk (a module imported statically from several places has no
    // entry of its own in the manifest, only the chunk Rolldown names after it).
    const chunk = key.startsWith('chunk:')
      ? Object.values(manifest).find((candidate) => candidate.name === key.slice('chunk:'.length))
      : manifest[key];
    if (!chunk) throw new Error(`Not in the build manifest: ${key}`);
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    chunk.imports?.forEach(visit);
  };
  entries.forEach(visit);
  return files;
}

function gzippedKb(files: Set<string>): number {
  let bytes = 0;
  for (const file of files) if (file.endsWith('.js')) bytes += gzipSync(readFileSync(`dist/${file}`)).length;
  return bytes / 1024;
}

const budgets = [
  {
    name: 'landing page',
    limitKb: 100,
    entries: [
      'index.html',
      'chunk:public-layout',
      'src/features/marketing/landing-page.tsx',
      'src/features/marketing/cookie-banner.tsx',
    ],
  },
  {
    name: 'signed-in dashboard',
    limitKb: 200,
    // The signed-in area is a chunk of its own (vite.config.ts, chunkPlan), and so are the auth and
    // PostgREST clients with the current user's profile call (the first thing a signed-in boot does).
    entries: [
      'index.html',
      'chunk:signed-in-area',
      'src/features/dashboard/dashboard-page.tsx',
      'chunk:supabase',
      'src/features/marketing/cookie-banner.tsx',
    ],
  },
  // Visitors' pages: no supabase-js, Dexie or sync engine. What they load
  // after the first render (the cookie banner, workbox-window) is counted as well.
  {
    name: 'public directory (visitor)',
    limitKb: 100,
    entries: [
      'index.html',
      'chunk:public-layout',
      'src/features/public/shared-directory-page.tsx',
      'src/features/marketing/cookie-banner.tsx',
    ],
  },
  {
    name: 'public profile (visitor)',
    limitKb: 100,
    entries: [
      'index.html',
      'chunk:public-layout',
      'src/features/public/public-profile-page.tsx',
      'src/features/marketing/cookie-banner.tsx',
    ],
  },
];

let failed = false;

// No source maps in a production build: the stack would refuse them, but none should exist.
const maps = (readdirSync('dist', { recursive: true }) as string[]).filter((file) => file.endsWith('.map'));
if (maps.length) {
  console.log(`FAIL source maps in dist: ${maps.join(', ')}`);
  failed = true;
} else console.log('ok   no source maps in dist');
// Temporal's polyfill is a chunk of its own, loaded only by a browser without Temporal
// (src/domain/temporal-runtime.ts): no screen's static closure holds it.
const polyfill = Object.entries(manifest).find(([key]) => key.includes('temporal-polyfill/implementation'))?.[1];
const withPolyfill = budgets.filter((budget) => polyfill && closure(budget.entries).has(polyfill.file));
if (!polyfill || withPolyfill.length) {
  console.log(
    `FAIL temporal-polyfill ${polyfill ? `loaded statically by ${withPolyfill.map((b) => b.name).join(', ')}` : 'is not a chunk of its own'}`,
  );
  failed = true;
} else console.log('ok   temporal-polyfill only where the browser has no Temporal');
// The command palette (cmdk and its index) loads with the first Ctrl/Cmd+K (docs/architecture.md, Command
// palette): no screen's static closure holds its chunk or cmdk's code.
const palette = manifest['src/features/palette/palette.tsx'];
const withPalette = budgets.filter((budget) =>
  [...closure(budget.entries)].some(
    (file) =>
      file === palette?.file || (file.endsWith('.js') && readFileSync(`dist/${file}`, 'utf8').includes('cmdk-list')),
  ),
);
if (!palette || withPalette.length) {
  console.log(
    `FAIL command palette ${palette ? `loaded statically by ${withPalette.map((b) => b.name).join(', ')}` : 'is not a chunk of its own'}`,
  );
  failed = true;
} else console.log('ok   command palette (cmdk) only on the first Ctrl/Cmd+K');
for (const budget of budgets) {
  const size = gzippedKb(closure(budget.entries));
  const ok = size <= budget.limitKb;
  failed ||= !ok;
  console.log(`${ok ? 'ok  ' : 'OVER'} ${budget.name}: ${size.toFixed(1)} KB gzipped JS (budget ${budget.limitKb} KB)`);
}
process.exit(failed ? 1 : 0);
