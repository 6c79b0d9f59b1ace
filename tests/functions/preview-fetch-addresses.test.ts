/**
 * The preview fetch refuses every address that is not a public unicast one, in every form a URL or
 * a resolver can spell it, before connecting: each form is its own case. A fixture server listens
 * on loopback throughout, and none of these requests may reach it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchFailureMessage, fetchPage, type FetchFailure } from '../../supabase/functions/_shared/preview-fetch.ts';
import { systemResolve } from '../../supabase/functions/_shared/preview-resolve.ts';
import { html, startFixture, type Fixture } from './preview-fixture.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await startFixture({ '/': html('<title>Loopback</title>') });
});
afterAll(() => fixture.close());

/** A resolver that must not be asked: literals and local names are judged without a lookup. */
const noLookup = async (name: string): Promise<string[]> => {
  throw new Error(`looked up ${name}`);
};

const literals: [string, string][] = [
  ['loopback', 'http://127.0.0.1/'],
  ['loopback, other address of 127/8', 'http://127.0.0.2/'],
  ['decimal', 'http://2130706433/'],
  ['octal', 'http://0177.0.0.1/'],
  ['hex, short', 'http://0x7f.1/'],
  ['hex, whole', 'http://0x7f000001/'],
  ['short', 'http://127.1/'],
  ['IPv6 loopback', 'http://[::1]/'],
  ['IPv4-mapped IPv6, hex', 'http://[::ffff:7f00:1]/'],
  ['IPv4-mapped IPv6, dotted', 'http://[::ffff:127.0.0.1]/'],
  ['IPv4-mapped private', 'http://[::ffff:10.0.0.1]/'],
  ['IPv4-compatible IPv6', 'http://[::7f00:1]/'],
  ['IPv4-translated IPv6', 'http://[::ffff:0:7f00:1]/'],
  ['NAT64 of loopback', 'http://[64:ff9b::7f00:1]/'],
  ['NAT64 of private', 'http://[64:ff9b::a00:1]/'],
  ['NAT64 of the metadata address', 'http://[64:ff9b::a9fe:a9fe]/'],
  ['local-use NAT64', 'http://[64:ff9b:1::808:808]/'],
  ['6to4 of loopback', 'http://[2002:7f00:1::1]/'],
  ['6to4 of a public address', 'http://[2002:808:808::1]/'],
  ['Teredo', 'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/'],
  ['private 10/8', 'http://10.0.0.1/'],
  ['private 172.16/12, low end', 'http://172.16.0.1/'],
  ['private 172.16/12, high end', 'http://172.31.255.254/'],
  ['private 192.168/16', 'http://192.168.1.1/'],
  ['link-local', 'http://169.254.10.1/'],
  ['cloud metadata', 'http://169.254.169.254/latest/meta-data/'],
  ['IPv6 link-local', 'http://[fe80::1]/'],
  ['carrier-grade NAT', 'http://100.64.0.1/'],
  ['carrier-grade NAT, high end', 'http://100.127.255.254/'],
  ['multicast', 'http://224.0.0.1/'],
  ['IPv6 multicast', 'http://[ff02::1]/'],
  ['unspecified', 'http://0.0.0.0/'],
  ['unspecified, 0/8', 'http://0.1.2.3/'],
  ['IPv6 unspecified', 'http://[::]/'],
  ['broadcast', 'http://255.255.255.255/'],
  ['reserved 240/4', 'http://240.0.0.1/'],
  ['documentation range', 'http://192.0.2.1/'],
  ['benchmarking range', 'http://198.18.0.1/'],
  ['IPv6 unique-local fc00::/7', 'http://[fc00::1]/'],
  ['IPv6 unique-local fd00::/8', 'http://[fd12:3456:789a::1]/'],
  ['IPv6 documentation', 'http://[2001:db8::1]/'],
  ['the fixture itself, on its port', ''],
];

const names: [string, string][] = [
  ['localhost', 'http://localhost/'],
  ['localhost with the trailing dot', 'http://localhost./'],
  ['localhost in capitals', 'http://LOCALHOST/'],
  ['a subdomain of localhost', 'http://app.localhost/'],
  ['a single-label name', 'http://intranet/'],
];

describe('the preview fetch refuses a private or local address', () => {
  it.each(literals)('%s', async (_form, given) => {
    const url = given || `http://127.0.0.1:${fixture.port}/`;
    const result = await fetchPage(url, { resolve: noLookup });
    expect(result).toEqual({ ok: false, reason: 'forbidden_address' });
    expect(fixture.requests).toEqual([]);
  });

  it.each(names)('%s, without a lookup', async (_form, url) => {
    expect(await fetchPage(url, { resolve: noLookup })).toEqual({ ok: false, reason: 'forbidden_address' });
  });

  const answers: [string, string[]][] = [
    ['a private answer', ['10.1.2.3']],
    ['the metadata address', ['169.254.169.254']],
    ['an IPv4-mapped loopback answer', ['::ffff:127.0.0.1']],
    ['an IPv6 unique-local answer', ['fd00::5']],
    ['one public and one private answer', ['93.184.215.14', '192.168.0.10']],
    ['one public and one loopback IPv6 answer', ['2606:2800:21f:cb07:6820:80da:af6b:8b2c', '::1']],
    ['an answer that is no address', ['93.184.215.14', 'rebind.attacker.example']],
  ];
  it.each(answers)('a name with %s', async (_case, addresses) => {
    let asked = 0;
    const resolve = async () => {
      asked++;
      return addresses;
    };
    expect(await fetchPage('https://news.example/article', { resolve })).toEqual({
      ok: false,
      reason: 'forbidden_address',
    });
    expect(asked).toBe(1);
  });

  it('says so without naming the address', () => {
    const message = fetchFailureMessage('forbidden_address');
    expect(message).toBe('This link points to a private or local address and cannot be previewed.');
    expect(message).not.toMatch(/\d+\.\d+/);
  });
});

describe('the preview fetch refuses other URLs before connecting', () => {
  const cases: [string, string, FetchFailure][] = [
    ['ftp', 'ftp://files.example/a.html', 'forbidden_scheme'],
    ['file', 'file:///etc/passwd', 'forbidden_scheme'],
    ['javascript', 'javascript:alert(1)', 'forbidden_scheme'],
    ['data', 'data:text/html,<title>x</title>', 'forbidden_scheme'],
    ['a user name', 'https://user@news.example/', 'credentials'],
    ['a user name and password', 'https://user:secret@news.example/', 'credentials'],
    ['a port other than 80 and 443', 'https://news.example:8443/', 'forbidden_port'],
    ['port 22 on a public address', 'http://93.184.215.14:22/', 'forbidden_port'],
    ['no URL', 'news.example', 'invalid_url'],
    ['a NUL in the host', 'https://news\u0000.example/', 'invalid_url'],
  ];
  it.each(cases)('%s', async (_case, url, reason) => {
    const resolve = async () => ['93.184.215.14'];
    expect(await fetchPage(url, { resolve })).toEqual({ ok: false, reason });
  });

  it('a resolver that throws before it answers is a failure, not a throw', async () => {
    const broken = (): Promise<string[]> => {
      throw new Error('resolver broke');
    };
    expect(await fetchPage('https://news.example/', { resolve: broken })).toEqual({ ok: false, reason: 'connect' });
  });

  it("the system's resolver gives every answer, which the fetch then checks", async () => {
    expect(await systemResolve('localhost')).toContain('127.0.0.1');
  });

  it('a name that does not resolve is a dns failure', async () => {
    const failing = async (): Promise<string[]> => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    expect(await fetchPage('https://nowhere.example/', { resolve: failing })).toEqual({ ok: false, reason: 'dns' });
    expect(await fetchPage('https://nowhere.example/', { resolve: async () => [] })).toEqual({
      ok: false,
      reason: 'dns',
    });
  });
});
