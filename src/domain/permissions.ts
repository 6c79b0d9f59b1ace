/**
 * Who may do what in a directory (docs/product.md, Records "Directory permission flags", docs/product.md, Roles and permissions): the one place
 * the client decides it. The links screen's flags, the mutators' checks
 * (src/data/access.ts) and the server's rules agree with `directoryRule`; the same table of
 * cases runs against this module (tests/domain/permission-cases.test.ts) and through the
 * server's sync_push on both databases (tests/db/permission-cases.test.ts).
 */
import { underLimit } from './limits.ts';
import type { Tier } from './plans.ts';

export type DirectoryRole = 'owner' | 'editor' | 'viewer';

/**
 * What a user does in a directory, as the rules tell them apart: who may (the owner only, or
 * the owner and editors), and whether it is a paid feature of the directory owner's plan.
 */
const rules = {
  'link.create': { who: 'editor' },
  'link.update': { who: 'editor' },
  'link.delete': { who: 'editor' },
  /** Marking a link a favourite. */
  'link.favorite': { who: 'editor', paid: true },
  'directory.update': { who: 'owner' },
  'directory.delete': { who: 'owner' },
  'member.invite_viewer': { who: 'owner' },
  /** Inviting as editor, or making a member one. */
  'member.invite_editor': { who: 'owner', paid: true },
  'member.set_role_editor': { who: 'owner', paid: true },
  'member.remove': { who: 'owner' },
} as const satisfies Record<string, { who: 'owner' | 'editor'; paid?: true }>;

export type DirectoryAction = keyof typeof rules;
export const directoryActions = Object.keys(rules) as DirectoryAction[];

/** allowed; forbidden (the role may not); limit_reached (the role may, the owner's plan may not). */
export type RuleAnswer = 'allowed' | 'forbidden' | 'limit_reached';

/**
 * Whether `role` may do `action` in a directory whose owner is on `ownerTier` (null when the
 * client does not know it: the plan part is then left to the server). Plan limits that count
 * rows (links, directories) are limits.ts's.
 */
export function directoryRule(action: DirectoryAction, role: DirectoryRole | null, ownerTier: Tier | null): RuleAnswer {
  const rule: { who: 'owner' | 'editor'; paid?: true } = rules[action];
  if (role === null || role === 'viewer' || (rule.who === 'owner' && role !== 'owner')) return 'forbidden';
  if (rule.paid && ownerTier === 'free') return 'limit_reached';
  return 'allowed';
}

/** Whether `role` may do `action` (the plan aside). */
export function roleMay(action: DirectoryAction, role: DirectoryRole | null): boolean {
  return directoryRule(action, role, null) === 'allowed';
}

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
    canInviteToSelected: roleMay('member.invite_viewer', role),
    canEditSelected: roleMay('directory.update', role),
    canManageMembers: roleMay('member.remove', role),
    canEditLinks: roleMay('link.update', role),
  };
}
