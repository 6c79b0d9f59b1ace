import { describe, expect, it, vi } from 'vitest';
import { signUp, type SignUpDeps } from '../../../src/features/auth/sign-up-flow.ts';

function deps(overrides: Partial<SignUpDeps> = {}): SignUpDeps {
  return {
    isUsernameAvailable: vi.fn(async () => true),
    hasSession: vi.fn(async () => false),
    signUp: vi.fn(async () => ({ ok: true as const })),
    loadUser: vi.fn(async () => ({
      id: 'u1',
      email: 'a@b.c',
      username: 'ada',
      full_name: '',
      bio: '',
      subscription_tier: 'free',
      time_zone: 'UTC',
    })),
    claimUsername: vi.fn(async () => true),
    rememberUsername: vi.fn(),
    ...overrides,
  };
}

const input = { email: 'a@b.c', password: 'secret-pass', username: 'Ada' };

describe('sign-up flow', () => {
  it('refuses a short username before calling anything', async () => {
    const d = deps();
    expect(await signUp(d, { ...input, username: 'a!' })).toEqual({
      ok: false,
      message: 'Please choose a username (min 3 chars).',
    });
    expect(d.isUsernameAvailable).not.toHaveBeenCalled();
  });

  it('stops at an unavailable username', async () => {
    const d = deps({ isUsernameAvailable: vi.fn(async () => false) });
    expect(await signUp(d, input)).toEqual({ ok: false, message: 'Username is unavailable.' });
    expect(d.signUp).not.toHaveBeenCalled();
  });

  it('passes on the provider message', async () => {
    const d = deps({ signUp: vi.fn(async () => ({ ok: false as const, message: 'User already registered' })) });
    expect(await signUp(d, input)).toEqual({ ok: false, message: 'User already registered' });
  });

  it('creates the account with the sanitised username and remembers it', async () => {
    const d = deps();
    expect(await signUp(d, input)).toEqual({ ok: true, username: 'ada' });
    expect(d.signUp).toHaveBeenCalledWith('a@b.c', 'secret-pass', 'ada');
    expect(d.claimUsername).not.toHaveBeenCalled();
    expect(d.rememberUsername).toHaveBeenCalledWith('ada');
  });

  it('says the username was taken when the second check fails, and retries only the username', async () => {
    const d = deps({
      loadUser: vi.fn(async () => ({
        id: 'u1',
        email: 'a@b.c',
        username: 'a',
        full_name: '',
        bio: '',
        subscription_tier: 'free',
        time_zone: 'UTC',
      })),
      claimUsername: vi.fn(async () => false),
    });
    expect(await signUp(d, input)).toEqual({ ok: false, message: 'Username taken, try another.' });

    const retry = deps({ hasSession: vi.fn(async () => true) });
    expect(await signUp(retry, { ...input, username: 'ada2' })).toEqual({ ok: true, username: 'ada2' });
    expect(retry.signUp).not.toHaveBeenCalled();
    expect(retry.claimUsername).toHaveBeenCalledWith('ada2');
  });
});
