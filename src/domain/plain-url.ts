/** Plain addresses, read without the URL parser (docs/scale.md, Where a first sync's time goes). */

/**
 * A plain address: http(s), a host of ASCII letters, digits and hyphens (its last label not a
 * number, no Punycode label), a path of characters the URL parser keeps as they are (no escape,
 * no empty, '.' or '..' segment), no port, credentials, query or fragment. Most saved links are
 * such; their identity key (link-identity.ts) and words (search-words.ts) are made without the
 * URL parser, the same as through it (tests/domain/link-identity-plain.test.ts).
 */
const PLAIN = /^https?:\/\/((?:[a-z0-9-]+\.)*[a-z][a-z0-9-]*)((?:\/[A-Za-z0-9\-._~!$&'()*+,;=:@]*)*)$/;
const UNPLAIN_PATH = /\/\/|\/\.\.?(?:\/|$)/;
/** normalize-url's `www.` rule (stripWWW). */
export const STRIPPED_WWW = /^www\.(?!www\.)[a-z\-\d]{1,63}\.[a-z.\-\d]{2,63}$/;

/** A plain address's host and path as the URL parser reads them (hostname, pathname), or undefined. */
export function plainParts(url: string): { host: string; path: string } | undefined {
  if (url.length > 2048) return undefined;
  const match = PLAIN.exec(url);
  if (!match) return undefined;
  const host = match[1]!;
  const path = match[2]!;
  if (UNPLAIN_PATH.test(path) || host.startsWith('xn--') || host.includes('.xn--')) return undefined;
  return { host, path: path === '' ? '/' : path };
}
