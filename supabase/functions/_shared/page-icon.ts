/**
 * The icon a card shows for a page: of its `<link rel="icon" | "shortcut icon" | "apple-touch-icon">`
 * the one closest to 64 px and not smaller when there is one (sharp at 32 CSS px on a 2x screen),
 * else the largest; SVG icons are skipped (the image fetch refuses SVG). Without any, the site's
 * `/favicon.ico`, as browsers look for it.
 */
import type { IconLink } from './page-head.ts';
import { previewUrl } from './preview-text.ts';

const WANTED = 64;

/** The size in pixels an icon link declares, or its rel's usual size when it declares none. */
function sizeOf(icon: IconLink): number {
  const sizes = (icon.sizes ?? '')
    .toLowerCase()
    .split(/\s+/)
    .map((size) => /^(\d+)x(\d+)$/.exec(size))
    .filter((match) => match !== null)
    .map((match) => Math.min(Number(match[1]), Number(match[2])));
  if (sizes.length > 0) return sizes.reduce((best, size) => (score(size) < score(best) ? size : best));
  return icon.rel.some((rel) => rel.startsWith('apple-touch-icon')) ? 180 : 32;
}

/** Lower is better: the smallest at least WANTED, then the largest below it. */
function score(size: number): number {
  return size >= WANTED ? size - WANTED : 100_000 + (WANTED - size);
}

function isSvg(icon: IconLink, url: string): boolean {
  return icon.type === 'image/svg+xml' || icon.sizes?.toLowerCase() === 'any' || new URL(url).pathname.endsWith('.svg');
}

/** The best icon's absolute URL: `base` resolves the links, `pageUrl` the default `/favicon.ico`. */
export function chooseIcon(icons: readonly IconLink[], base: string, pageUrl: string): string | null {
  let best: { url: string; score: number } | null = null;
  for (const icon of icons) {
    const url = previewUrl(icon.href, base);
    if (url === null || isSvg(icon, url)) continue;
    const rank = score(sizeOf(icon));
    if (best === null || rank < best.score) best = { url, score: rank };
  }
  return best?.url ?? previewUrl('/favicon.ico', pageUrl);
}
