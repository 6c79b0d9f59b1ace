import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { errors, jwtVerify, SignJWT } from 'jose';
import { signHs256, secretKey } from '../../supabase/local/keys.ts';
import { signAccessToken } from '../../supabase/local/auth-sessions.ts';
import { verifyHs256, verifyJwt } from '../../supabase/local/jwt.ts';

const secret = 's'.repeat(40);
const now = Math.floor(Date.now() / 1000);
const b64 = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** A token of any header and payload, signed with `key`. */
function token(header: unknown, payload: unknown, key = secret): string {
  const head = `${b64(header)}.${b64(payload)}`;
  return `${head}.${createHmac('sha256', key).update(head).digest('base64url')}`;
}

/** jose's answer for the same token (the checks the stack made with it before). */
async function jose(jwt: string): Promise<'ok' | 'expired' | 'invalid'> {
  try {
    await jwtVerify(jwt, secretKey(secret), { algorithms: ['HS256'] });
    return 'ok';
  } catch (error) {
    return error instanceof errors.JWTExpired ? 'expired' : 'invalid';
  }
}

const outcome = (jwt: string) => {
  const result = verifyHs256(jwt, secret);
  return result.ok ? 'ok' : result.reason;
};

describe('HS256 verification (supabase/local/jwt.ts)', () => {
  const hs256 = { alg: 'HS256', typ: 'JWT' };
  const valid = signHs256({ sub: 'u', role: 'authenticated', exp: now + 60 }, secret);
  const cases: [string, string][] = [
    ['a valid token', valid],
    ['an API key', signHs256({ iss: 'supabase', role: 'anon', exp: 1983812996 }, secret)],
    ['no exp', token(hs256, { role: 'anon' })],
    ['expired', token(hs256, { role: 'anon', exp: now - 1 })],
    ['expiring this second', token(hs256, { role: 'anon', exp: now })],
    ['not yet valid', token(hs256, { role: 'anon', nbf: now + 60 })],
    ['valid from now', token(hs256, { role: 'anon', nbf: now - 1 })],
    ['exp not a number', token(hs256, { role: 'anon', exp: String(now + 60) })],
    ['iat not a number', token(hs256, { role: 'anon', iat: 'today' })],
    ['another secret', token(hs256, { role: 'anon' }, 't'.repeat(40))],
    ['alg none', `${b64({ alg: 'none' })}.${b64({ role: 'service_role' })}.`],
    ['alg HS512', token({ alg: 'HS512' }, { role: 'anon' })],
    ['a crit header', token({ alg: 'HS256', crit: ['exp'] }, { role: 'anon' })],
    ['a payload not an object', token(hs256, [1, 2])],
    ['a payload not JSON', token(hs256, 'not json')],
    ['a header not JSON', token('not json', { role: 'anon' })],
    ['a changed payload', `${valid.split('.')[0]}.${b64({ sub: 'u', role: 'service_role' })}.${valid.split('.')[2]}`],
    ['a signature with a character more', `${valid}A`],
    ['a signature cut short', valid.slice(0, -2)],
    ['two parts', valid.split('.').slice(0, 2).join('.')],
    ['four parts', `${valid}.x`],
    ['empty', ''],
  ];

  it.each(cases)('answers %s as jose does', async (_, jwt) => {
    expect(outcome(jwt)).toBe(await jose(jwt));
  });

  it('gives the claims of the stack’s own access tokens, as jose does', async () => {
    const user = { id: 'u1', email: 'a@example.com', app_metadata: {}, user_metadata: {}, is_anonymous: false };
    const issued = await signAccessToken(
      { iss: 'http://127.0.0.1/auth/v1', secret },
      user as Parameters<typeof signAccessToken>[1],
      { id: 's1', startedAt: now },
    );
    const ours = await verifyJwt(issued.token, secret);
    const theirs = await jwtVerify(issued.token, secretKey(secret), { algorithms: ['HS256'] });
    expect(ours).toEqual({ ok: true, claims: theirs.payload });
    const signed = await new SignJWT({ role: 'anon' }).setProtectedHeader({ alg: 'HS256' }).sign(secretKey(secret));
    expect(outcome(signed)).toBe('ok');
  });

  it('says an expired token is expired, at the second it expires', () => {
    const jwt = token(hs256, { role: 'anon', exp: now + 10 });
    expect(verifyHs256(jwt, secret, (now + 9) * 1000).ok).toBe(true);
    expect(verifyHs256(jwt, secret, (now + 10) * 1000)).toEqual({
      ok: false,
      reason: 'expired',
      message: 'token is expired',
    });
  });
});
