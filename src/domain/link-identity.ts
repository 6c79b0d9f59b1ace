/**
 * A link's identity: two URLs with the same key are the same page to the user, so saving the
 * second says where the first is, and an import skips it (docs/product.md, Duplicate links).
 * Written once, here; the key is stored with each link on the device (`_urlKey`,
 * src/data/link-index.ts) and never sent to the server.
 *
 * The key is the URL as saved (`normalizeUrl`: trimmed, 'https://' prepended without a scheme,
 * http(s) only), then normalised by normalize-url with these choices:
 * - scheme and host case, a default port, IDN hosts (to Punycode), percent-escape spellings,
 *   `.` and `..` segments, duplicate slashes: the URL parser's and normalize-url's own rules;
 * - `http` and `https` are one page: nearly every site sends one to the other;
 * - `www.` is dropped: sites serve the same pages with and without it (as Pocket and Raindrop
 *   read them);
 * - a trailing slash is dropped, the query is sorted, credentials are dropped;
 * - tracking parameters are dropped: `utm_*` and the click and mail ids below, anywhere, and a
 *   few that mean something only on their own sites (YouTube's and Spotify's `si`, X's `s` and
 *   `t`: `t` is a time on YouTube, so it stays there);
 * - the fragment is kept, except a text fragment (`#:~:text=`, a highlight Chrome's "Copy link to
 *   highlight" adds): a hash can be a page of a single-page app (`#/inbox`, `#!/`) or a part of a
 *   page saved on purpose, and an import must not drop such a bookmark as a duplicate;
 * - a non-default port, the path's case and an index file (`/index.html`) are kept: they can
 *   name other pages.
 *
 * Changing these choices changes stored keys: it needs a new Dexie version that recomputes them
 * (src/data/db.ts).
 */
import normalize from 'normalize-url';
import { normalizeUrl } from './validation.ts';
import { STRIPPED_WWW, plainParts } from './plain-url.ts';

/** Parameters that only track where a click came from, on any site. */
export const TRACKING_PARAMETERS: readonly (string | RegExp)[] = [
  /^utm_\w+$/i,
  'fbclid',
  'gclid',
  'gclsrc',
  'dclid',
  'gbraid',
  'wbraid',
  'msclkid',
  'yclid',
  'twclid',
  'ttclid',
  'li_fat_id',
  'igshid',
  'igsh',
  'mc_cid',
  'mc_eid',
  'mkt_tok',
  '_hsenc',
  '_hsmi',
  '_ga',
  '_gl',
  'ck_subscriber_id',
  'oly_anon_id',
  'oly_enc_id',
  'vero_id',
  'ref_src',
  'ref_url',
  'srsltid',
];

/** Parameters that track only on these sites (elsewhere the same name can be content). */
const SITE_TRACKING: Readonly<Record<string, readonly string[]>> = {
  'youtube.com': ['si', 'feature', 'pp'],
  'm.youtube.com': ['si', 'feature', 'pp'],
  'music.youtube.com': ['si', 'feature'],
  'youtu.be': ['si', 'feature'],
  'open.spotify.com': ['si'],
  'x.com': ['s', 't'],
  'twitter.com': ['s', 't'],
  'mobile.twitter.com': ['s', 't'],
  'instagram.com': ['igsh'],
};

const OPTIONS = {
  defaultProtocol: 'https',
  forceHttps: true,
  stripWWW: true,
  stripHash: false,
  stripTextFragment: true,
  stripAuthentication: true,
  removeQueryParameters: [...TRACKING_PARAMETERS],
  removeTrailingSlash: true,
  removeSingleSlash: true,
  removeDirectoryIndex: false,
  removeExplicitPort: false,
  sortQueryParameters: true,
  emptyQueryValue: 'never',
} as const;

/** The URL without the parameters its own site uses for tracking; the same string when it has none. */
function withoutSiteTracking(url: string): string {
  const parsed = new URL(url);
  const names = SITE_TRACKING[parsed.hostname.replace(/^www\./, '')];
  if (!names?.some((name) => parsed.searchParams.has(name))) return url;
  for (const name of names) parsed.searchParams.delete(name);
  return parsed.href;
}

/** The key of a plain address (PLAIN), or undefined for any other input. */
export function plainIdentity(url: string): string | undefined {
  const parts = plainParts(url);
  if (!parts) return undefined;
  const { host, path } = parts;
  const site = STRIPPED_WWW.test(host) ? host.slice(4) : host;
  return `https://${site}${path.endsWith('/') ? path.slice(0, -1) : path}`;
}

/**
 * The identity key of a URL as a user typed, pasted or imported it, or null when it is not a
 * URL that could be saved (empty, not http(s), longer than 2,048 characters, unparsable). Never
 * throws.
 */
export function linkIdentity(input: string): string | null {
  return plainIdentity(input) ?? parsedIdentity(input);
}

/** linkIdentity through the URL parser and normalize-url, for any input. */
export function parsedIdentity(input: string): string | null {
  try {
    const url = normalizeUrl(input);
    return url === null ? null : normalize(withoutSiteTracking(url), OPTIONS);
  } catch {
    return null;
  }
}
