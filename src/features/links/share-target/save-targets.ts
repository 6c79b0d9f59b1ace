/** Where a shared page can be saved: the directories the user may add links to. */
import type { DirectoryRow, MemberRow } from '../../../data/rows.ts';
import { directoryPermissions } from '../../../domain/permissions.ts';
import type { Tier } from '../../../domain/plans.ts';

export interface SaveTarget {
  directory: DirectoryRow;
  owned: boolean;
}

/**
 * Owned directories, then shared ones where the user is an editor, each group in the given
 * order (by name). The owner's link limit is left to the mutator, which refuses with the
 * product's message (docs/product.md), so a full directory still shows where the link would have gone.
 */
export function saveTargets(
  directories: readonly DirectoryRow[],
  memberships: readonly MemberRow[],
  user: { id: string; tier: Tier },
): SaveTarget[] {
  const roles = new Map(memberships.filter((m) => !m.deleted_at).map((m) => [m.directory_id, m.role]));
  const targets = directories
    .filter(
      (directory) =>
        directoryPermissions({
          userId: user.id,
          tier: user.tier,
          directory,
          role: roles.get(directory.id) ?? null,
          ownedDirectoryCount: 0,
          linkCount: 0,
        }).canEditLinks,
    )
    .map((directory) => ({ directory, owned: directory.owner_id === user.id }));
  return [...targets.filter((t) => t.owned), ...targets.filter((t) => !t.owned)];
}

const key = (userId: string) => `linkboard.share-target.directory.${userId}`;

/** The directory the user last saved a shared page to, on this device. */
export function lastUsedDirectory(userId: string): string | null {
  try {
    return localStorage.getItem(key(userId));
  } catch {
    return null;
  }
}

export function rememberDirectory(userId: string, directoryId: string): void {
  try {
    localStorage.setItem(key(userId), directoryId);
  } catch {
    // Storage full or disabled: the first directory is preselected next time.
  }
}
