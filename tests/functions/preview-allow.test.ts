/**
 * The preview fetch's test-only exception, PREVIEW_FETCH_ALLOW: off unless set, loopback pairs
 * only, and ignored with a warning in production and on the hosted runtime.
 */
import { describe, expect, it } from 'vitest';
import { allowKey, previewFetchAllow } from '../../supabase/functions/_shared/preview-allow.ts';

const envOf = (values: Record<string, string>) => (name: string) => values[name];

describe('PREVIEW_FETCH_ALLOW', () => {
  it('is off unless set', () => {
    expect([...previewFetchAllow(envOf({}))]).toEqual([]);
  });

  it('takes loopback address:port pairs, IPv4 and IPv6', () => {
    const warnings: string[] = [];
    const allow = previewFetchAllow(envOf({ PREVIEW_FETCH_ALLOW: '127.0.0.1:4567, [::1]:8080' }), (w) =>
      warnings.push(w),
    );
    expect(allow.has(allowKey('127.0.0.1', 4567))).toBe(true);
    expect(allow.has(allowKey('::1', 8080))).toBe(true);
    expect(allow.has(allowKey('127.0.0.1', 8080))).toBe(false);
    expect(warnings).toEqual([]);
  });

  it.each([
    ['a private address', '10.0.0.5:80'],
    ['the metadata address', '169.254.169.254:80'],
    ['a public address', '93.184.215.14:443'],
    ['a name', 'localhost:4567'],
    ['no port', '127.0.0.1'],
    ['port 0', '127.0.0.1:0'],
  ])('refuses %s, with a warning', (_case, entry) => {
    const warnings: string[] = [];
    expect([...previewFetchAllow(envOf({ PREVIEW_FETCH_ALLOW: entry }), (w) => warnings.push(w))]).toEqual([]);
    expect(warnings).toHaveLength(1);
  });

  it.each([
    ['NODE_ENV=production', { NODE_ENV: 'production' }],
    ['on Deno Deploy', { DENO_DEPLOYMENT_ID: 'abc_def_1' }],
    ["on Supabase's Edge Runtime", { SB_REGION: 'eu-west-2' }],
  ])('is ignored %s, with a warning', (_case, production) => {
    const warnings: string[] = [];
    const allow = previewFetchAllow(envOf({ PREVIEW_FETCH_ALLOW: '127.0.0.1:4567', ...production }), (w) =>
      warnings.push(w),
    );
    expect([...allow]).toEqual([]);
    expect(warnings).toEqual([
      'PREVIEW_FETCH_ALLOW is ignored in production: link previews never reach a private address.',
    ]);
  });
});
