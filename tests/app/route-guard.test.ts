import { describe, expect, it } from 'vitest';
import { followRename } from '../../src/app/route-guard.tsx';
import { unsyncedMessage } from '../../src/app/sync/sign-out.ts';

describe('after a rename', () => {
  it('moves a path with the former username to the new one', () => {
    expect(followRename('/Profile/ada', '/', 'ada', 'ada_l')).toBe('/Profile/ada_l');
    expect(followRename('/Links/ADA', '/', 'ada', 'ada_l')).toBe('/Links/ada_l');
  });

  it('still sends other people’s paths away', () => {
    expect(followRename('/Profile/bob', '/', 'ada', 'ada_l')).toBe('/');
    expect(followRename('/Profile/ada', '/', null, 'ada_l')).toBe('/');
    expect(followRename('/Profile/ada_l', null, 'ada', 'ada_l')).toBeNull();
  });
});

describe('sign-out with unsynced changes', () => {
  it('asks with the count', () => {
    expect(unsyncedMessage(1)).toBe('You have 1 change that has not been synced. Sign out and discard it?');
    expect(unsyncedMessage(3)).toBe('You have 3 changes that have not been synced. Sign out and discard them?');
  });
});
