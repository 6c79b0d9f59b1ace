/**
 * The guarded fetch of link previews (docs/architecture.md, Link previews: the guarded fetch): a
 * page or an image a user's link points at, fetched by the server without reaching anything private.
 *
 * - Only `http:` and `https:`, no user name or password in the URL, ports 80 and 443 only.
 * - Every address a host name resolves to is checked (preview-address.ts); one bad answer refuses
 *   the host. The connection goes to a checked address, pinned (preview-transport.ts).
 * - Redirects are followed by hand, at most 5, each checked the same way.
 * - 5 s for everything, bodies read up to a cap (2 MB for a page, 1 MB for an image) and no further;
 *   no cookies sent or kept, no credentials, a plain user agent naming Linkboard.
 * - A page must be `text/html` or `application/xhtml+xml`; an image PNG, JPEG, GIF, WebP, AVIF or
 *   an icon, and its first bytes must say so. SVG is refused: it is a document that may carry script.
 *
 * Every outcome is a typed result, never a throw; `fetchFailureMessage` words a failure without the
 * addresses involved.
 */
import { NO_EXCEPTIONS, allowKey, type AllowList } from './preview-allow.ts';
import { checkAddress, hostLiteral, isLocalName, type CheckedAddress } from './preview-address.ts';
import { looksLikeImage } from './preview-image-types.ts';
import { systemResolve, type Resolve } from './preview-resolve.ts';
import { requestHop, type Hop } from './preview-transport.ts';

export const PREVIEW_USER_AGENT = 'Linkboard-Preview/1.0 (+https://linkboard.app)';
export const PAGE_MAX_BYTES = 2 * 1024 * 1024;
export const IMAGE_MAX_BYTES = 1024 * 1024;
export const FETCH_TIMEOUT_MS = 5000;
export const MAX_REDIRECTS = 5;

export type FetchFailure =
  | 'invalid_url'
  | 'forbidden_scheme'
  | 'credentials'
  | 'forbidden_port'
  | 'forbidden_address'
  | 'dns'
  | 'connect'
  | 'timeout'
  | 'too_large'
  | 'http_status'
  | 'not_html'
  | 'not_image'
  | 'too_many_redirects'
  | 'bad_response';

export type FetchResult =
  | {
      ok: true;
      /** The URL the body came from, after redirects: relative URLs in it resolve against this. */
      url: string;
      contentType: string;
      /** The charset the Content-Type header names, if any. */
      charset: string | null;
      body: Uint8Array;
    }
  | { ok: false; reason: FetchFailure; status?: number };

export interface FetchOptions {
  /** The host-name lookup; the system's by default. Tests inject one. */
  resolve?: Resolve;
  /** Loopback `address port` pairs allowed despite the rules (preview-allow.ts); none by default. */
  allow?: AllowList;
  timeoutMs?: number;
  /** Extra trusted certificates (tests of TLS against a fixture server). */
  ca?: string;
}

type Kind = 'page' | 'image' | 'check';

const PAGE_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const ACCEPT: Record<Kind, string> = {
  page: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
  check: '*/*',
  image: 'image/avif,image/webp,image/png,image/jpeg,image/gif,image/x-icon;q=0.9',
};

/** A page (HTML) for its metadata. */
export function fetchPage(url: string, options: FetchOptions = {}): Promise<FetchResult> {
  return guardedFetch(url, 'page', options);
}

/** An image (an icon, a preview image), checked to be one. */
export function fetchImage(url: string, options: FetchOptions = {}): Promise<FetchResult> {
  return guardedFetch(url, 'image', options);
}

/**
 * Whether the page at `url` is still there, by its final status after redirects, with the same
 * guards as a page and no body read: HEAD, or GET (`method`) for a server that refuses HEAD. An
 * answer is `{ ok: false, reason: 'http_status', status }`, 2xx included; anything else is why no
 * status could be had.
 */
export function checkPage(url: string, method: 'GET' | 'HEAD', options: FetchOptions = {}): Promise<FetchResult> {
  return guardedFetch(url, 'check', options, method);
}

async function guardedFetch(
  start: string,
  kind: Kind,
  options: FetchOptions,
  method: 'GET' | 'HEAD' = 'GET',
): Promise<FetchResult> {
  try {
    return await followRedirects(start, kind, options, method);
  } catch {
    // Nothing above throws on purpose (an injected resolver or the runtime might): still a result.
    return { ok: false, reason: 'connect' };
  }
}

async function followRedirects(
  start: string,
  kind: Kind,
  options: FetchOptions,
  method: 'GET' | 'HEAD',
): Promise<FetchResult> {
  const deadline = Date.now() + (options.timeoutMs ?? FETCH_TIMEOUT_MS);
  let current: string = start;
  for (let redirects = 0; ; redirects++) {
    const url = parseUrl(current);
    if (!url.ok) return url;
    const target = await connectTarget(url.value, options, deadline);
    if (!target.ok) return target;
    const hop: Hop = {
      url: url.value,
      addresses: target.addresses,
      headers: { 'User-Agent': PREVIEW_USER_AGENT, Accept: ACCEPT[kind], 'Accept-Encoding': 'gzip, deflate, br' },
      deadline,
      maxBytes: kind === 'page' ? PAGE_MAX_BYTES : IMAGE_MAX_BYTES,
      wants:
        kind === 'check'
          ? () => false
          : kind === 'page'
            ? (type) => PAGE_TYPES.has(type)
            : (type) => looksLikeImage(type, null),
      method,
      ...(options.ca ? { ca: options.ca } : {}),
    };
    const answer = await requestHop(hop);
    switch (answer.kind) {
      case 'failed':
        return { ok: false, reason: answer.reason };
      case 'unwanted':
        if (kind === 'check' || answer.status < 200 || answer.status > 299)
          return { ok: false, reason: 'http_status', status: answer.status };
        return { ok: false, reason: kind === 'page' ? 'not_html' : 'not_image' };
      case 'redirect':
        if (answer.location === null) return { ok: false, reason: 'http_status', status: answer.status };
        if (redirects === MAX_REDIRECTS) return { ok: false, reason: 'too_many_redirects' };
        current = resolveLocation(answer.location, url.value);
        continue;
      case 'body':
        if (kind === 'image' && !looksLikeImage(answer.contentType, answer.body))
          return { ok: false, reason: 'not_image' };
        return {
          ok: true,
          url: url.value.href,
          contentType: answer.contentType,
          charset: answer.charset,
          body: answer.body,
        };
    }
  }
}

function resolveLocation(location: string, base: URL): string {
  try {
    return new URL(location, base).href;
  } catch {
    return location;
  }
}

function parseUrl(text: string): { ok: true; value: URL } | { ok: false; reason: FetchFailure } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'invalid_url' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: 'forbidden_scheme' };
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'credentials' };
  return { ok: true, value: url };
}

type Target = { ok: true; addresses: CheckedAddress[] } | { ok: false; reason: FetchFailure };

const STANDARD_PORTS = new Set([80, 443]);

/** The checked addresses to connect to for `url`, or why there are none. */
async function connectTarget(url: URL, options: FetchOptions, deadline: number): Promise<Target> {
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const allow = options.allow ?? NO_EXCEPTIONS;
  const judge = (address: string): CheckedAddress | 'forbidden_address' | 'forbidden_port' => {
    if (allow.has(allowKey(address, port))) return { address, family: address.includes(':') ? 6 : 4 };
    const checked = checkAddress(address);
    if (!checked) return 'forbidden_address';
    return STANDARD_PORTS.has(port) ? checked : 'forbidden_port';
  };
  const literal = hostLiteral(url.hostname);
  let answers: string[];
  if (literal !== null) answers = [literal];
  else if (isLocalName(url.hostname)) return { ok: false, reason: 'forbidden_address' };
  else {
    const found = await lookupBefore(options.resolve ?? systemResolve, url.hostname, deadline);
    if (found === 'timeout') return { ok: false, reason: 'timeout' };
    if (found === null || found.length === 0) return { ok: false, reason: 'dns' };
    answers = found;
  }
  // Every answer must pass: one private answer refuses the host (a resolver may hand out any of them).
  const judged = answers.map(judge);
  if (judged.includes('forbidden_address')) return { ok: false, reason: 'forbidden_address' };
  if (judged.includes('forbidden_port')) return { ok: false, reason: 'forbidden_port' };
  return { ok: true, addresses: judged as CheckedAddress[] };
}

async function lookupBefore(
  resolve: Resolve,
  hostname: string,
  deadline: number,
): Promise<string[] | null | 'timeout'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timeout'>((done) => {
    timer = setTimeout(() => done('timeout'), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([resolve(hostname).catch(() => null), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Why a preview could not be fetched, in plain words that name no address. */
export function fetchFailureMessage(reason: FetchFailure): string {
  return FAILURE_MESSAGES[reason];
}

const FAILURE_MESSAGES: Record<FetchFailure, string> = {
  invalid_url: 'The link is not a valid URL.',
  forbidden_scheme: 'Only http and https links can be previewed.',
  credentials: 'Links with a user name or password are not previewed.',
  forbidden_port: 'Only links on the standard web ports (80 and 443) are previewed.',
  forbidden_address: 'This link points to a private or local address and cannot be previewed.',
  dns: 'The site could not be found.',
  connect: 'The site could not be reached.',
  timeout: 'The site took too long to answer.',
  too_large: 'The page is too large to preview.',
  http_status: 'The site answered with an error.',
  not_html: 'The link is not a web page.',
  not_image: 'The file is not a supported image.',
  too_many_redirects: 'The link redirects too many times.',
  bad_response: 'The site sent a response that could not be read.',
};
