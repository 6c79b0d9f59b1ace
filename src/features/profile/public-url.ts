/**
 * Where a user's public profile opens: origin plus username (docs/product.md, Profile), served by the
 * `/:username` route. A username that is also the first segment of one of the app's own
 * paths (or of the server's) would open that page instead, so it falls back to
 * /PublicProfile/{username}.
 */
import { pageSegments } from '../../domain/pages.ts';
import { USERNAME_MAX, USERNAME_MIN } from '../../domain/username.ts';

/** First path segments taken by the app's routes and the server, lower-cased. */
export const RESERVED_SEGMENTS: readonly string[] = [
  // the first segments of the app's pages (src/domain/pages.ts; lower-case variants match the same routes)
  ...pageSegments,
  // the server: API prefixes, the mailbox, built files
  'api',
  'assets',
  'auth',
  'functions',
  'icons',
  'rest',
  '_mailbox',
];

const USERNAME = new RegExp(`^[a-z0-9_-]{${USERNAME_MIN},${USERNAME_MAX}}$`, 'i');

/** Whether a single-segment path names a user's public profile (a username that is not reserved). */
export function isProfileSegment(segment: string): boolean {
  return USERNAME.test(segment) && !RESERVED_SEGMENTS.includes(segment.toLowerCase());
}

/** The path of a user's public profile. */
export function publicProfilePath(username: string): string {
  const name = encodeURIComponent(username);
  return isProfileSegment(username) ? `/${name}` : `/PublicProfile/${name}`;
}
