/**
 * <link rel="modulepreload"> for the screen an address opens, written into index.html as it is
 * served (static.ts), so a first visit fetches the screen's chunks with the entry instead of after
 * it has run (one round trip less before the first paint). Only the visitors' pages are listed: a
 * signed-in user's browser boots from the index.html the service worker keeps, which has none.
 * The screens are those of src/app/routes.tsx; the files come from Vite's build manifest.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isProfileSegment } from '../../src/features/profile/public-url.ts';

interface ManifestChunk {
  file: string;
  name?: string;
  imports?: string[];
  isEntry?: boolean;
}
type Manifest = Record<string, ManifestChunk>;

const publicLayout = 'chunk:public-layout';
const marketing = (page: string) => [publicLayout, `src/features/marketing/${page}.tsx`];
const sharedDirectory = ['src/features/public/shared-directory-page.tsx'];
const publicProfile = ['src/features/public/public-profile-page.tsx'];

/**
 * The cookie banner: a first visit shows it with the screen (main.tsx waits for it while no choice
 * is stored). A returning visitor who has chosen has it in the HTTP cache (immutable assets).
 */
const cookieBanner = 'src/features/marketing/cookie-banner.tsx';

/** The screen modules (manifest keys, or 'chunk:<name>') an address renders for a visitor, and the banner. */
export function screensFor(pathname: string): string[] {
  const screens = visitorScreens(pathname);
  return screens.length ? [...screens, cookieBanner] : [];
}

function visitorScreens(pathname: string): string[] {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/') return marketing('landing-page');
  const page = /^\/(features|privacy|gdpr|about|contact)$/i.exec(path)?.[1]?.toLowerCase();
  if (page) return marketing(page === 'gdpr' ? 'gdpr-page' : `${page}-page`);
  if (/^\/login$/i.test(path)) return ['src/features/auth/login-page.tsx'];
  if (/^\/(links\/[^/]+\/dir\/[^/]+|links\/dir\/[^/]+|share\/dir\/.+)$/i.test(path)) return sharedDirectory;
  if (/^\/publicprofile(\/[^/]+)?$/i.test(path)) return publicProfile;
  const segment = /^\/([^/]+)$/.exec(path)?.[1];
  if (segment && isProfileSegment(segment)) return publicProfile;
  return [];
}

/** The JS files of those screens and what they import statically, the entry's own excepted. */
export function preloadFiles(manifest: Manifest, screens: string[]): string[] {
  const files = new Set<string>();
  const entries = new Set(
    Object.values(manifest)
      .filter((chunk) => chunk.isEntry)
      .map((chunk) => chunk.file),
  );
  const visit = (key: string) => {
    const chunk = key.startsWith('chunk:')
      ? Object.values(manifest).find((candidate) => candidate.name === key.slice('chunk:'.length))
      : manifest[key];
    if (!chunk || entries.has(chunk.file) || files.has(chunk.file) || !chunk.file.endsWith('.js')) return;
    files.add(chunk.file);
    chunk.imports?.forEach(visit);
  };
  screens.forEach(visit);
  return [...files];
}

let cached: { path: string; mtimeMs: number; manifest: Manifest } | null = null;

async function manifestOf(root: string): Promise<Manifest | null> {
  const path = join(root, '.vite', 'manifest.json');
  const info = await stat(path).catch(() => undefined);
  if (!info) return null;
  if (cached?.path !== path || cached.mtimeMs !== info.mtimeMs) {
    try {
      cached = { path, mtimeMs: info.mtimeMs, manifest: JSON.parse(await readFile(path, 'utf8')) as Manifest };
    } catch {
      return null;
    }
  }
  return cached.manifest;
}

/** The <link> tags for `pathname` (none without a build manifest). */
export async function routePreloads(root: string, pathname: string): Promise<string> {
  const screens = screensFor(pathname);
  if (!screens.length) return '';
  const manifest = await manifestOf(root);
  if (!manifest) return '';
  return preloadFiles(manifest, screens)
    .map((file) => `<link rel="modulepreload" crossorigin href="/${file}" />`)
    .join('\n    ');
}
