/** The permission case table (permission-cases.ts) against the one domain module. */
import { expect, it } from 'vitest';
import { directoryActions, directoryPermissions, directoryRule } from '../../src/domain/permissions.ts';
import { permissionCases } from './permission-cases.ts';

it('covers every action', () => {
  expect(new Set(permissionCases.map((c) => c.action))).toEqual(new Set(directoryActions));
});

it.each(permissionCases)('$role may $action with a $plan owner: $answer', ({ action, role, plan, answer }) => {
  expect(directoryRule(action, role, plan)).toBe(answer);
});

it.each(permissionCases.filter((c) => c.action === 'link.update' || c.action === 'directory.update'))(
  "the links screen's flags follow the rules ($role, $action)",
  ({ action, role, plan, answer }) => {
    const flags = directoryPermissions({
      userId: 'me',
      tier: plan,
      directory: { owner_id: role === 'owner' ? 'me' : 'someone' },
      role: role === 'owner' ? null : role,
      ownedDirectoryCount: 0,
      linkCount: 0,
    });
    const flag = action === 'link.update' ? flags.canEditLinks : flags.canEditSelected;
    expect(flag).toBe(answer === 'allowed');
  },
);
