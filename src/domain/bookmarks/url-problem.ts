/**
 * Why an imported bookmark's URL cannot be saved, the true reason for each: nothing there, a scheme other
 * than http or https (javascript:, data:, file:, place:, a path without a scheme), longer than the server
 * keeps (URL_MAX), or an http(s) URL that is not a URL (no host, a space or a control character inside, a
 * host the URL parser refuses). The file's URL is taken as written (trimmed); nothing is guessed.
 */
import { normalizeUrl } from '../validation.ts';

/** The longest URL the server keeps (saved_links.url, text_limits in supabase/schemas/rules.sql). */
export const URL_MAX = 2048;

export const URL_PROBLEMS = ['empty', 'not-http', 'too-long', 'invalid'] as const;
export type UrlProblem = (typeof URL_PROBLEMS)[number];

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
/** C0 controls and DEL (the server's text cannot hold a NUL), and UTF-16 halves without their pair. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what it looks for
const UNSAVABLE = /[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Null when the URL can be saved as written (trimmed); else the reason it cannot. */
export function urlProblem(href: string): UrlProblem | null {
  const url = href.trim();
  if (url === '') return 'empty';
  const scheme = SCHEME.exec(url)?.[1]?.toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') return 'not-http';
  if (url.length > URL_MAX) return 'too-long';
  if (!/^https?:\/\/[^/?#]/i.test(url) || UNSAVABLE.test(url)) return 'invalid';
  return normalizeUrl(url) === url ? null : 'invalid';
}
