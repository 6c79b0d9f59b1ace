/**
 * The table of permission cases: role × action × the directory owner's plan
 * → the answer. tests/domain/permission-cases.test.ts runs it against src/domain/permissions.ts,
 * tests/db/permission-cases.test.ts through the server's sync_push (RLS and rules) on both
 * databases. Change a rule: change this table, then both sides.
 */
import type { DirectoryAction, DirectoryRole, RuleAnswer } from '../../src/domain/permissions.ts';
import type { Tier } from '../../src/domain/plans.ts';

export const caseRoles = ['owner', 'editor', 'viewer', null] as const satisfies readonly (DirectoryRole | null)[];
export const casePlans = ['free', 'pro'] as const satisfies readonly Tier[];

const A = 'allowed';
const F = 'forbidden';
const L = 'limit_reached';

/** By action: the answers for [owner, editor, viewer, no role], for a Free owner, then a Pro owner. */
const table: Record<DirectoryAction, Record<(typeof casePlans)[number], RuleAnswer[]>> = {
  'link.create': { free: [A, A, F, F], pro: [A, A, F, F] },
  'link.update': { free: [A, A, F, F], pro: [A, A, F, F] },
  'link.delete': { free: [A, A, F, F], pro: [A, A, F, F] },
  'link.favorite': { free: [L, L, F, F], pro: [A, A, F, F] },
  'directory.update': { free: [A, F, F, F], pro: [A, F, F, F] },
  'directory.delete': { free: [A, F, F, F], pro: [A, F, F, F] },
  'member.invite_viewer': { free: [A, F, F, F], pro: [A, F, F, F] },
  'member.invite_editor': { free: [L, F, F, F], pro: [A, F, F, F] },
  'member.set_role_editor': { free: [L, F, F, F], pro: [A, F, F, F] },
  'member.remove': { free: [A, F, F, F], pro: [A, F, F, F] },
};

export interface PermissionCase {
  action: DirectoryAction;
  role: DirectoryRole | null;
  plan: Tier;
  answer: RuleAnswer;
}

export const permissionCases: PermissionCase[] = Object.entries(table).flatMap(([action, plans]) =>
  casePlans.flatMap((plan) =>
    caseRoles.map((role, index) => ({
      action: action as DirectoryAction,
      role,
      plan,
      answer: plans[plan][index]!,
    })),
  ),
);
