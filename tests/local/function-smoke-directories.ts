/** The smoke cases of the directory reads: public-directory, my-directories, directory-voting-posts. */
import { expect } from 'vitest';
import { bearer, error, FORGED, preflight, wrongMethod, type SmokeCase } from './function-smoke-cases.ts';

const INVALID_SESSION = error('Invalid or expired session');
const NOT_A_DIRECTORY = error('dirId must be a directory id (uuid)');
const MISSING_SESSION = error('Missing session token');
const dirQuery = (id: string) => `?dirId=${id}`;

export const directoryCases: SmokeCase[] = [
  // public-directory
  {
    fn: 'public-directory',
    title: 'serves a public directory and its links to a visitor',
    request: (ctx) => ({ query: dirQuery(ctx.fx.directoryId) }),
    status: 200,
    body: {
      directory: expect.objectContaining({ name: 'Reading list' }),
      links: [expect.objectContaining({ url: 'https://example.com/a', title: 'Example' })],
    },
  },
  {
    fn: 'public-directory',
    title: 'refuses a malformed id with 400',
    request: () => ({ query: '?dirId=not-a-uuid%00' }),
    status: 400,
    body: NOT_A_DIRECTORY,
  },
  {
    fn: 'public-directory',
    title: 'refuses an invalid session with 401',
    request: (ctx) => ({ query: dirQuery(ctx.fx.directoryId), headers: bearer(FORGED) }),
    status: 401,
    body: INVALID_SESSION,
  },
  wrongMethod('public-directory', 'POST'),
  preflight('public-directory', 'GET'),
  // my-directories
  {
    fn: 'my-directories',
    title: 'lists the caller’s directories and their links',
    request: (ctx) => ({ headers: bearer(ctx.fx.user.token) }),
    status: 200,
    body: {
      directories: [expect.objectContaining({ name: 'Reading list' })],
      links: [expect.objectContaining({ title: 'Example' })],
    },
  },
  {
    fn: 'my-directories',
    title: 'refuses a caller without a session with 401',
    request: () => ({}),
    status: 401,
    body: MISSING_SESSION,
  },
  {
    fn: 'my-directories',
    title: 'refuses an invalid session with 401',
    request: () => ({ headers: bearer(FORGED) }),
    status: 401,
    body: INVALID_SESSION,
  },
  wrongMethod('my-directories', 'POST'),
  preflight('my-directories', 'GET'),
  // directory-voting-posts
  {
    fn: 'directory-voting-posts',
    title: 'lists the directory’s live polls',
    request: (ctx) => ({ query: dirQuery(ctx.fx.directoryId), headers: bearer(ctx.fx.user.token) }),
    status: 200,
    body: { posts: [expect.objectContaining({ title: 'Lunch?' })] },
  },
  {
    fn: 'directory-voting-posts',
    title: 'refuses a repeated dirId with 400',
    request: (ctx) => ({
      query: `${dirQuery(ctx.fx.directoryId)}&dirId=${ctx.fx.directoryId}`,
      headers: bearer(ctx.fx.user.token),
    }),
    status: 400,
    body: NOT_A_DIRECTORY,
  },
  {
    fn: 'directory-voting-posts',
    title: 'refuses a caller without a session with 401',
    request: (ctx) => ({ query: dirQuery(ctx.fx.directoryId) }),
    status: 401,
    body: MISSING_SESSION,
  },
  wrongMethod('directory-voting-posts', 'POST'),
  preflight('directory-voting-posts', 'GET'),
];
