/** The directory permission flags of the links screen (spec 3 "Directory permission flags", spec 6). */
import { underLimit } from './limits.ts';
import type { Tier } from './plans.ts';

export type DirectoryRole = 'owner' | 'editor' | 'viewer';

export interface PermissionInput {
  userId: string;
  tier: Tier;
  /** The selected directory (only its owner matters), or null when none is selected. */
  directory: { owner_id: string } | null;
  /** The user's role in the selected directory; derived from owner_id when it is the user's. */
  role: DirectoryRole | null;
  /** How many directories the user owns. */
  ownedDirectoryCount: number;
  /** How many links count towards the user's own link limit. */
  linkCount: number;
}

export interface DirectoryPermissions {
  /** Add Link: the owner under the link limit, or an editor (the owner's limit is checked by the server). */
  canAddLink: boolean;
  /** New Directory: Free users own one directory. */
  canAddDirectory: boolean;
  /** Invite: only the owner. */
  canInviteToSelected: boolean;
  /** Settings (edit the directory): only the owner. */
  canEditSelected: boolean;
  /** Members: only the owner manages members. */
  canManageMembers: boolean;
  /** Edit, delete and favourite links: owner or editor. */
  canEditLinks: boolean;
}

export function roleIn(userId: string, directory: { owner_id: string } | null, role: DirectoryRole | null) {
  if (!directory) return null;
  return directory.owner_id === userId ? 'owner' : role === 'owner' ? null : role;
}

export function directoryPermissions(input: PermissionInput): DirectoryPermissions {
  const role = roleIn(input.userId, input.directory, input.role);
  const owner = role === 'owner';
  const editor = role === 'editor';
  return {
    canAddLink: (owner && underLimit(input.tier, 'links', input.linkCount)) || editor,
    canAddDirectory: underLimit(input.tier, 'directories', input.ownedDirectoryCount),
    canInviteToSelected: owner,
    canEditSelected: owner,
    canManageMembers: owner,
    canEditLinks: owner || editor,
  };
}
