/**
 * The route rules of docs/product.md, Route rules as pure functions: which path a visitor is sent to,
 * given the path and what is known of the current user. Which page is guarded how comes from
 * the page table (pages.ts).
 */
import { confirmationQuery } from './email-confirmation.ts';
import { PAGES, pageList, type Guard } from './pages.ts';

const firstSegment = (path: string) => path.split('/')[1]!.toLowerCase();
const firstSegmentsOf = (...guards: Guard[]) =>
  pageList.filter(([, page]) => guards.includes(page.guard)).flatMap(([, page]) => page.paths.map(firstSegment));

/** Pages whose bare path gets the username appended once the user is known, by lower-cased name. */
const canonical = new Map(
  pageList
    .filter(([, page]) => page.appendUsername)
    .map(([, page]) => [firstSegment(page.paths[0]!), page.paths[0]!.slice(1)]),
);
/** Pages (and their sub-paths) that need a signed-in user. */
const protectedPages = firstSegmentsOf('signed-in', 'scoped-by-username');
/** Pages whose {username} segment must be the signed-in user's own. */
const usernamePages = firstSegmentsOf('scoped-by-username');
/** Pages a visitor is sent to sign in from (and brought back to). */
const signInFirstPages = firstSegmentsOf('signed-in');
const guestPages = firstSegmentsOf('guest');

/**
 * The visitors' paths, as prefixes: a pattern up to its last fixed segment, then anything
 * ('/Links/:username/dir/:dirId' admits every path starting with /links/{name}/dir/).
 */
const visitorPrefixes = pageList
  .filter(([, page]) => page.guard === 'visitor-allowed')
  .flatMap(([, page]) => page.paths)
  .map((path) => {
    const parts = path.toLowerCase().split('/').slice(1);
    while (parts.length && (parts.at(-1)!.startsWith(':') || parts.at(-1) === '*')) parts.pop();
    const fixed = parts;
    const username = fixed.indexOf(':username');
    const source = fixed.map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    return { prefix: new RegExp(`^/${source.join('/')}/`), username };
  });

export type Viewer =
  { status: 'loading' } | { status: 'signed-out' } | { status: 'signed-in'; username: string | null };

/** Page names become paths by turning spaces into hyphens and adding a leading slash. */
export function pagePath(pageName: string, username?: string | null): string {
  const path = `/${pageName.trim().replace(/\s+/g, '-')}`;
  return username && canonical.has(pageName.toLowerCase()) ? `${path}/${username}` : path;
}

function normalSearch(search: string): string {
  if (!search || search === '?') return '';
  return search.startsWith('?') ? search : `?${search}`;
}

function segments(path: string): string[] {
  return path.split('/').filter(Boolean);
}

/** Paths a visitor may open without an account: public and shared directory views. */
export function isVisitorPath(path: string): boolean {
  const lower = path.toLowerCase();
  return visitorPrefixes.some(({ prefix }) => prefix.test(lower));
}

export function isProtectedPath(path: string): boolean {
  const first = segments(path)[0]?.toLowerCase();
  return !!first && protectedPages.includes(first) && !isVisitorPath(path);
}

/** The {username} segment of a scoped route or of a visitor's path that names one, if the path has one. */
export function pathUsername(path: string): string | null {
  const parts = segments(path);
  // Empty segments dropped and a slash added, so /links/dir counts as the shared view's path too.
  const normal = `/${parts.join('/')}/`.toLowerCase();
  const visitor = visitorPrefixes.find(({ prefix }) => prefix.test(normal));
  if (visitor) return visitor.username < 0 ? null : (parts[visitor.username] ?? null);
  const [first, second] = parts;
  return first && second && usernamePages.includes(first.toLowerCase()) ? second : null;
}

/**
 * The in-app path a `?next=` query asks to return to after signing in, or null when there is
 * none or it could leave the app (another origin, a protocol-relative or backslash path).
 */
export function returnPath(search: string): string | null {
  const next = new URLSearchParams(search).get('next');
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return null;
  const first = segments(next.split(/[?#]/)[0] ?? '')[0]?.toLowerCase();
  return first && guestPages.includes(first) ? null : next;
}

/**
 * Where the visitor must go instead of `path` (history replace), or null to stay.
 * While the user is still loading nothing moves, so a signed-in user is never bounced.
 * `search` is the query of the current address (with or without its '?').
 */
export function redirectFor(path: string, viewer: Viewer, search = ''): string | null {
  if (viewer.status === 'loading') return null;
  const parts = segments(path);
  const first = parts[0]?.toLowerCase();

  if (viewer.status === 'signed-out') {
    // A page shared into the app needs an account to be saved in: sign in, then come back to it.
    if (first && signInFirstPages.includes(first))
      return `${PAGES.login.paths[0]}?${new URLSearchParams({ next: path + normalSearch(search) })}`;
    return isProtectedPath(path) ? '/' : null;
  }

  const { username } = viewer;
  if (first && guestPages.includes(first)) {
    const home = username ? `${PAGES.dashboard.paths[0]}/${username}` : PAGES.dashboard.paths[0];
    // A confirmation link's outcome (auth's redirect to /Login) goes along, for the shell to say.
    return returnPath(search) ?? `${home}${confirmationQuery(search)}`;
  }
  const bare = parts.length === 1 && first ? canonical.get(first) : undefined;
  if (bare && username) {
    return `/${bare}/${username}`;
  }
  if (isVisitorPath(path)) return null;
  const inPath = pathUsername(path);
  if (inPath !== null && (!username || inPath.toLowerCase() !== username.toLowerCase())) return '/';
  return null;
}
