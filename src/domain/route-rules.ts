/**
 * The route rules of spec 2.2 as pure functions: which path a visitor is sent to,
 * given the path and what is known of the current user.
 */
import { confirmationQuery } from './email-confirmation.ts';

/** Pages whose bare path gets the username appended once the user is known. */
const scopedPages = ['dashboard', 'links', 'calendar', 'upcoming', 'upgrade'] as const;
/** Pages (and their sub-paths) that need a signed-in user. */
const protectedPages = [
  'dashboard',
  'calendar',
  'upcoming',
  'profile',
  'links',
  'upgrade',
  'voting',
  'share-target',
] as const;
/** Pages whose {username} segment must be the signed-in user's own. */
const usernamePages = ['dashboard', 'links', 'calendar', 'upcoming', 'profile', 'upgrade', 'voting'] as const;

const canonical: Record<(typeof scopedPages)[number], string> = {
  dashboard: 'Dashboard',
  links: 'Links',
  calendar: 'Calendar',
  upcoming: 'Upcoming',
  upgrade: 'Upgrade',
};

export type Viewer =
  { status: 'loading' } | { status: 'signed-out' } | { status: 'signed-in'; username: string | null };

/** Page names become paths by turning spaces into hyphens and adding a leading slash. */
export function pagePath(pageName: string, username?: string | null): string {
  const path = `/${pageName.trim().replace(/\s+/g, '-')}`;
  const key = pageName.toLowerCase() as (typeof scopedPages)[number];
  return username && scopedPages.includes(key) ? `${path}/${username}` : path;
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
  if (lower.startsWith('/links/dir/') || lower.startsWith('/share/dir/')) return true;
  return /^\/links\/[^/]+\/dir\//.test(lower);
}

export function isProtectedPath(path: string): boolean {
  const first = segments(path)[0]?.toLowerCase();
  return !!first && (protectedPages as readonly string[]).includes(first) && !isVisitorPath(path);
}

/** The {username} segment of a scoped route, if the path has one. */
export function pathUsername(path: string): string | null {
  const [first, second, third] = segments(path);
  if (!first || !second || !(usernamePages as readonly string[]).includes(first.toLowerCase())) return null;
  if (first.toLowerCase() === 'links' && (second.toLowerCase() === 'dir' || third?.toLowerCase() === 'dir')) {
    return second.toLowerCase() === 'dir' ? null : second;
  }
  return second;
}

/**
 * The in-app path a `?next=` query asks to return to after signing in, or null when there is
 * none or it could leave the app (another origin, a protocol-relative or backslash path).
 */
export function returnPath(search: string): string | null {
  const next = new URLSearchParams(search).get('next');
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return null;
  const first = segments(next.split(/[?#]/)[0] ?? '')[0]?.toLowerCase();
  return first === 'login' ? null : next;
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
    if (first === 'share-target') return `/Login?${new URLSearchParams({ next: path + normalSearch(search) })}`;
    return isProtectedPath(path) ? '/' : null;
  }

  const { username } = viewer;
  if (first === 'login') {
    const home = username ? `/Dashboard/${username}` : '/Dashboard';
    // A confirmation link's outcome (auth's redirect to /Login) goes along, for the shell to say.
    return returnPath(search) ?? `${home}${confirmationQuery(search)}`;
  }
  if (parts.length === 1 && first && first in canonical && username) {
    return `/${canonical[first as keyof typeof canonical]}/${username}`;
  }
  if (isVisitorPath(path)) return null;
  const inPath = pathUsername(path);
  if (inPath !== null && (!username || inPath.toLowerCase() !== username.toLowerCase())) return '/';
  return null;
}
