import { mkdtempSync, readFileSync, statSync, chmodSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jwtVerify } from 'jose';
import { installSecret, keysFor, SecretError } from '../../supabase/local/keys.ts';
import { mailboxModeFrom } from '../../supabase/local/server.ts';

describe('the install secret', () => {
  it('is made at random on the first start, kept with mode 0600, and the same on the next start', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'lb-keys-')), '.data', 'jwt-secret');
    const first = installSecret({}, file);
    expect(first.secret.length).toBeGreaterThanOrEqual(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(installSecret({}, file).secret).toBe(first.secret);
    const other = installSecret({}, join(mkdtempSync(join(tmpdir(), 'lb-keys-')), 'jwt-secret'));
    expect(other.secret).not.toBe(first.secret);
  });

  it('comes from JWT_SECRET when set, and is refused when too short', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'lb-keys-')), 'jwt-secret');
    const secret = 'x'.repeat(40);
    expect(installSecret({ JWT_SECRET: secret }, file)).toEqual({ secret, source: 'JWT_SECRET' });
    expect(() => installSecret({ JWT_SECRET: 'short' }, file)).toThrow(SecretError);
  });

  it('tightens a kept file that others could read', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'lb-keys-')), 'jwt-secret');
    writeFileSync(file, `${'k'.repeat(48)}\n`);
    chmodSync(file, 0o644);
    expect(installSecret({}, file).secret).toBe('k'.repeat(48));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe('k'.repeat(48));
  });

  it('signs the anon and service_role keys, which differ between installs', async () => {
    const a = keysFor('a'.repeat(40));
    const b = keysFor('b'.repeat(40));
    expect(a.anonKey).not.toBe(b.anonKey);
    const { payload } = await jwtVerify(a.anonKey, new TextEncoder().encode('a'.repeat(40)));
    expect(payload.role).toBe('anon');
    await expect(jwtVerify(a.serviceRoleKey, new TextEncoder().encode('b'.repeat(40)))).rejects.toThrow();
    expect(() => keysFor('')).toThrow(SecretError);
  });
});

describe('the mailbox mode', () => {
  it('is loopback by default, public only on request, and off once a mail provider is configured', () => {
    expect(mailboxModeFrom({})).toBe('loopback');
    expect(mailboxModeFrom({ LINKBOARD_MAILBOX: 'public' })).toBe('any');
    expect(mailboxModeFrom({ MAIL_PROVIDER: 'smtp', LINKBOARD_MAILBOX: 'public' })).toBe('off');
    expect(mailboxModeFrom({ MAIL_PROVIDER: 'local' })).toBe('loopback');
  });
});
