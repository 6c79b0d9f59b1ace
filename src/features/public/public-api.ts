/**
 * The anonymous RPCs behind the visitor pages (migration 20261122000500_public_access.sql).
 * A page that loaded is kept as an offline copy; when the server cannot be reached, the copy
 * (or 'offline') is answered, never 'unavailable' or 'missing'.
 */
import { anonRpc } from '../../backend/anon-rpc.ts';
import { deleteCopy, directoryKey, profileKey, readCopy, saveCopy } from './offline-copies.ts';
import { isUuid } from './open-url.ts';

export interface PublicLink {
  id: string;
  url: string;
  title: string;
  description?: string | null;
  tags?: string[] | null;
}

export interface PublicDirectory {
  id: string;
  name: string;
  description: string | null;
  color: string | null;
  has_password: boolean;
}

/** Set on an answer read from the offline copy: when that copy was seen. */
interface FromCopy {
  savedAt?: string;
}

export type DirectoryResult =
  | ({ kind: 'ok'; directory: PublicDirectory; links: PublicLink[] } & FromCopy)
  | { kind: 'password' }
  | { kind: 'wrong-password' }
  /** Too many tries (HTTP 429): the server's plain message. */
  | { kind: 'throttled'; message: string }
  | { kind: 'unavailable' }
  /** The server cannot be reached and no copy was kept. */
  | { kind: 'offline' };

/** What an RPC answer means for the visitor. */
type Reply<T> =
  | { kind: 'data'; data: T }
  | { kind: 'refused'; hint: string | null }
  | { kind: 'throttled'; message: string }
  | { kind: 'unreachable' };

const THROTTLED = 'Too many requests. Please try again later.';

/** The network or the server is down (status 0: no response; 502–504: a gateway without it). */
function unreachable(status: number | undefined): boolean {
  return (
    (typeof navigator !== 'undefined' && navigator.onLine === false) || !status || [502, 503, 504].includes(status)
  );
}

async function call<T>(fn: string, args: Record<string, unknown>): Promise<Reply<T>> {
  try {
    const { data, error, status } = await anonRpc<T>(fn, args);
    if (!error) return { kind: 'data', data };
    if (status === 429 || error.hint === 'throttled') return { kind: 'throttled', message: error.message || THROTTLED };
    if (unreachable(status)) return { kind: 'unreachable' };
    return { kind: 'refused', hint: error.hint ?? null };
  } catch {
    return { kind: 'unreachable' };
  }
}

export async function loadPublicDirectory(dirId: string, password?: string): Promise<DirectoryResult> {
  if (!isUuid(dirId)) return { kind: 'unavailable' };
  const args = password === undefined ? { p_directory_id: dirId } : { p_directory_id: dirId, p_password: password };
  const reply = await call<{ directory?: PublicDirectory; links?: PublicLink[] } | null>('get_public_directory', args);
  const key = directoryKey(dirId);
  switch (reply.kind) {
    case 'unreachable': {
      const copy = await readCopy<{ directory: PublicDirectory; links: PublicLink[] }>(key);
      return copy ? { kind: 'ok', ...copy.data, savedAt: copy.savedAt } : { kind: 'offline' };
    }
    case 'throttled':
      return { kind: 'throttled', message: reply.message };
    case 'refused':
      // A wrong password says nothing new about the directory (asking for it dropped the copy).
      if (reply.hint === 'forbidden' && password !== undefined) return { kind: 'wrong-password' };
      // Private, missing, or protected (its content is kept only while unlocked): drop the copy.
      await deleteCopy(key);
      return reply.hint === 'password_required' ? { kind: 'password' } : { kind: 'unavailable' };
    case 'data': {
      const directory = reply.data?.directory;
      if (!directory) {
        await deleteCopy(key);
        return { kind: 'unavailable' };
      }
      const links = reply.data?.links ?? [];
      // A protected directory is kept only once unlocked here, with its password.
      if (!directory.has_password || password !== undefined) await saveCopy(key, { directory, links });
      else await deleteCopy(key);
      return { kind: 'ok', directory, links };
    }
  }
}

export interface PublicCollection extends PublicDirectory {
  link_count: number;
  links: PublicLink[];
}

export interface PublicProfile {
  profile: { username: string; full_name: string | null; bio: string | null; subscription_tier: string | null };
  directories: PublicCollection[];
}

export type ProfileResult =
  | ({ kind: 'ok'; data: PublicProfile } & FromCopy)
  | { kind: 'missing' }
  | { kind: 'throttled'; message: string }
  | { kind: 'offline' };

/** The public profile of a username: missing when there is none (or the server refuses). */
export async function loadPublicProfile(username: string): Promise<ProfileResult> {
  const reply = await call<PublicProfile | null>('get_public_profile', { p_username: username });
  const key = profileKey(username);
  if (reply.kind === 'unreachable') {
    const copy = await readCopy<PublicProfile>(key);
    return copy ? { kind: 'ok', data: copy.data, savedAt: copy.savedAt } : { kind: 'offline' };
  }
  // A throttled lookup says nothing about the profile: its copy stays.
  if (reply.kind === 'throttled') return { kind: 'throttled', message: reply.message };
  if (reply.kind !== 'data' || !reply.data?.profile) {
    await deleteCopy(key);
    return { kind: 'missing' };
  }
  const data = { profile: reply.data.profile, directories: reply.data.directories ?? [] };
  await saveCopy(key, data);
  return { kind: 'ok', data };
}
