import { describe, expect, it } from 'vitest';
import { downgradeNotice } from '../../src/domain/downgrade-notice.ts';
import { planCard, planChange, tierOf } from '../../src/domain/plans.ts';
import { displayHandle, displayName } from '../../src/domain/profile-display.ts';
import { sanitizeUsername, usernameError } from '../../src/domain/username.ts';

describe('plans', () => {
  it('counts a missing or unknown tier as free', () => {
    expect(tierOf(undefined)).toBe('free');
    expect(tierOf('gold')).toBe('free');
    expect(tierOf('team')).toBe('team');
  });

  it('gives the plan card texts of each tier', () => {
    expect(planCard('free')).toEqual({
      title: 'Free Plan',
      text: 'Upgrade to Pro for unlimited links and advanced features',
      action: 'Upgrade to Pro',
    });
    expect(planCard('pro').action).toBe('Upgrade to Team');
    expect(planCard('team')).toEqual({ title: 'Team Plan', text: 'You have all the best features!', action: null });
  });
});

describe('profile display', () => {
  it('shows the full name or Your Profile', () => {
    expect(displayName({ fullName: 'Ada Lovelace' })).toBe('Ada Lovelace');
    expect(displayName({ fullName: '  ' })).toBe('Your Profile');
  });

  it('falls back from username to remembered username to e-mail to the word username', () => {
    expect(displayHandle({ username: 'ada', rememberedUsername: 'x', email: 'y@z' })).toBe('@ada');
    expect(displayHandle({ rememberedUsername: 'remembered', email: 'mail@x.com' })).toBe('@remembered');
    expect(displayHandle({ email: 'mail@x.com' })).toBe('@mail');
    expect(displayHandle({})).toBe('@username');
  });
});

describe('usernames', () => {
  it('keeps only allowed characters, lower-cased', () => {
    expect(sanitizeUsername('Ada Love-lace_1!')).toBe('adalove-lace_1');
  });

  it('asks for at least three characters', () => {
    expect(usernameError('a!b')).toBe('Please choose a username (min 3 chars).');
    expect(usernameError('abc')).toBeNull();
  });
});

describe('planChange', () => {
  it('is null the first time and when the plan did not move', () => {
    expect(planChange(null, 'pro')).toBeNull();
    expect(planChange('team', 'team')).toBeNull();
  });
  it('orders free < pro < team', () => {
    expect(planChange('free', 'pro')).toBe('upgrade');
    expect(planChange('pro', 'team')).toBe('upgrade');
    expect(planChange('team', 'pro')).toBe('downgrade');
    expect(planChange('pro', 'free')).toBe('downgrade');
  });
  it('says what a downgrade to Free keeps and stops', () => {
    const notice = downgradeNotice('team', 'free');
    expect(notice.title).toBe('Your plan is now Free');
    expect(notice.text.join(' ')).toMatch(/Team subscription has ended.*stays readable.*need Pro\.$/);
  });
});
