import { describe, expect, it } from 'vitest';
import { directoryPermissions, roleIn, type PermissionInput } from '../../src/domain/permissions.ts';

const base: PermissionInput = {
  userId: 'me',
  tier: 'free',
  directory: { owner_id: 'me' },
  role: 'owner',
  ownedDirectoryCount: 1,
  linkCount: 0,
};

describe('directoryPermissions', () => {
  it('gives the owner every flag on the selected directory', () => {
    expect(directoryPermissions({ ...base, tier: 'pro' })).toEqual({
      canAddLink: true,
      canAddDirectory: true,
      canInviteToSelected: true,
      canEditSelected: true,
      canManageMembers: true,
      canEditLinks: true,
    });
  });

  it('limits a Free owner to one directory and 30 links', () => {
    expect(directoryPermissions({ ...base, ownedDirectoryCount: 0 }).canAddDirectory).toBe(true);
    expect(directoryPermissions({ ...base, ownedDirectoryCount: 1 }).canAddDirectory).toBe(false);
    expect(directoryPermissions({ ...base, linkCount: 29 }).canAddLink).toBe(true);
    expect(directoryPermissions({ ...base, linkCount: 30 }).canAddLink).toBe(false);
    expect(directoryPermissions({ ...base, linkCount: 30 }).canEditLinks).toBe(true);
  });

  it('leaves Pro and Team unlimited', () => {
    for (const tier of ['pro', 'team'] as const) {
      const flags = directoryPermissions({ ...base, tier, ownedDirectoryCount: 50, linkCount: 10_000 });
      expect(flags.canAddDirectory).toBe(true);
      expect(flags.canAddLink).toBe(true);
    }
  });

  it('lets an editor add and edit links but not manage the directory', () => {
    const flags = directoryPermissions({ ...base, directory: { owner_id: 'other' }, role: 'editor', linkCount: 30 });
    expect(flags).toMatchObject({
      canAddLink: true,
      canEditLinks: true,
      canInviteToSelected: false,
      canEditSelected: false,
      canManageMembers: false,
    });
  });

  it('keeps a viewer read only', () => {
    const flags = directoryPermissions({ ...base, tier: 'team', directory: { owner_id: 'other' }, role: 'viewer' });
    expect(flags).toMatchObject({
      canAddLink: false,
      canEditLinks: false,
      canInviteToSelected: false,
      canEditSelected: false,
      canManageMembers: false,
    });
  });

  it('grants nothing on a directory without a selection, except creating directories', () => {
    const flags = directoryPermissions({ ...base, directory: null, role: null, ownedDirectoryCount: 0 });
    expect(flags).toEqual({
      canAddLink: false,
      canAddDirectory: true,
      canInviteToSelected: false,
      canEditSelected: false,
      canManageMembers: false,
      canEditLinks: false,
    });
  });

  it("does not trust a claimed owner role on someone else's directory", () => {
    expect(roleIn('me', { owner_id: 'other' }, 'owner')).toBeNull();
    expect(directoryPermissions({ ...base, directory: { owner_id: 'other' }, role: 'owner' }).canManageMembers).toBe(
      false,
    );
  });
});
