/** The anonymous RPCs behind the visitor pages (migration 20261122000500_public_access.sql). */
import { supabase } from '../../backend/supabase.ts';
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

export type DirectoryResult =
  | { kind: 'ok'; directory: PublicDirectory; links: PublicLink[] }
  | { kind: 'password' }
  | { kind: 'wrong-password' }
  | { kind: 'unavailable' };

export async function loadPublicDirectory(dirId: string, password?: string): Promise<DirectoryResult> {
  if (!isUuid(dirId)) return { kind: 'unavailable' };
  try {
    const args = password === undefined ? { p_directory_id: dirId } : { p_directory_id: dirId, p_password: password };
    const { data, error } = await supabase.rpc('get_public_directory', args);
    if (error) {
      if (error.hint === 'password_required') return { kind: 'password' };
      if (error.hint === 'forbidden') return { kind: 'wrong-password' };
      return { kind: 'unavailable' };
    }
    const answer = data as { directory?: PublicDirectory; links?: PublicLink[] } | null;
    if (!answer?.directory) return { kind: 'unavailable' };
    return { kind: 'ok', directory: answer.directory, links: answer.links ?? [] };
  } catch {
    return { kind: 'unavailable' };
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

/** The public profile of a username, or null when there is none or the call fails. */
export async function loadPublicProfile(username: string): Promise<PublicProfile | null> {
  try {
    const { data, error } = await supabase.rpc('get_public_profile', { p_username: username });
    if (error) return null;
    const answer = data as PublicProfile | null;
    if (!answer?.profile) return null;
    return { profile: answer.profile, directories: answer.directories ?? [] };
  } catch {
    return null;
  }
}
