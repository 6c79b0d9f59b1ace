import { describe, expect, it } from 'vitest';
import { linkIdentity } from '../../src/domain/link-identity.ts';

/** Each group: URLs as users paste them that are one page, so one key. */
const samePage: [string, string[]][] = [
  [
    'scheme, host case, default port, trailing slash, www. and http',
    [
      'https://example.org/page',
      'https://Example.org/page/',
      'HTTPS://EXAMPLE.ORG/page',
      'http://www.example.org:80/page/',
      'https://www.example.org:443/page',
      'example.org/page',
      '  www.example.org/page  ',
      'https://example.org./page',
      'https://user:secret@example.org/page',
    ],
  ],
  [
    'a newsletter link laden with tracking',
    [
      'https://blog.example.com/2026/11/launch?id=7',
      'https://blog.example.com/2026/11/launch?utm_source=newsletter&utm_medium=email&utm_campaign=nov-2026&id=7',
      'https://blog.example.com/2026/11/launch/?id=7&mc_cid=7f3a1b2c4d&mc_eid=9e8d7c6b5a',
      'https://blog.example.com/2026/11/launch?_hsenc=p2ANqtz-8x&_hsmi=123&id=7&mkt_tok=MzI3LUhTVC',
      'https://blog.example.com/2026/11/launch?UTM_Source=x&id=7',
    ],
  ],
  [
    'ad and social click ids',
    [
      'https://shop.example/item/42',
      'https://shop.example/item/42?fbclid=IwAR2x4bQ_0abcDEF',
      'https://shop.example/item/42?gclid=Cj0KCQiA&gbraid=0AAAAA&wbraid=x',
      'https://shop.example/item/42?msclkid=5e1c2&igshid=YmMyMTA2M2Y=&ttclid=E.C.P&_gl=1*abc',
    ],
  ],
  [
    "YouTube's share sheet",
    [
      'https://youtu.be/dQw4w9WgXcQ',
      'https://youtu.be/dQw4w9WgXcQ?si=Hk3sX8bQ2mL0pZ1a',
      'https://youtu.be/dQw4w9WgXcQ?feature=shared',
    ],
  ],
  [
    'a YouTube page with its time, whatever the parameter order',
    [
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s',
      'https://youtube.com/watch?t=42s&v=dQw4w9WgXcQ&si=abc',
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ&pp=ygUEcmljaw%3D%3D&t=42s&feature=youtu.be',
    ],
  ],
  ["X's share sheet", ['https://x.com/jack/status/20', 'https://x.com/jack/status/20?s=46&t=Zk3cX8bQ2mL0pZ1a']],
  [
    'a text fragment Chrome adds',
    ['https://example.org/doc', 'https://example.org/doc#:~:text=the%20quote', 'https://example.org/doc#'],
  ],
  [
    'an IDN host and its Punycode',
    [
      'https://bücher.example/straße',
      'https://xn--bcher-kva.example/stra%C3%9Fe',
      'https://BÜCHER.example/stra%c3%9fe',
    ],
  ],
  [
    'percent-encoding variants',
    ['https://example.org/~ada/café', 'https://example.org/%7Eada/caf%C3%A9', 'https://example.org/%7eada/caf%c3%a9'],
  ],
  [
    'a query sorted, a space written two ways',
    ['https://s.example/?q=a+b&lang=en', 'https://s.example/?lang=en&q=a%20b'],
  ],
];

/** Pairs that look alike and are other pages. */
const otherPages: [string, string, string][] = [
  ['another path', 'https://example.org/a', 'https://example.org/b'],
  ["the path's case", 'https://example.org/Page', 'https://example.org/page'],
  ['a non-default port', 'https://example.org:8443/a', 'https://example.org/a'],
  ['another subdomain', 'https://blog.example.org/a', 'https://example.org/a'],
  ['a hash route of a single-page app', 'https://app.example/#/inbox', 'https://app.example/#/settings'],
  ['a content parameter', 'https://shop.example/search?q=shoes', 'https://shop.example/search?q=boots'],
  [
    "YouTube's time",
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s',
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  ],
  ['`t` off YouTube and X is content', 'https://example.org/a?t=1', 'https://example.org/a?t=2'],
  ['an escaped slash', 'https://example.org/a%2Fb', 'https://example.org/a/b'],
  ['an index file', 'https://example.org/docs/index.html', 'https://example.org/docs'],
];

describe('a link’s identity key', () => {
  it.each(samePage)('is one for %s', (_name, urls) => {
    const keys = new Set(urls.map(linkIdentity));
    expect(keys.size, JSON.stringify(urls.map(linkIdentity))).toBe(1);
    expect([...keys][0]).toMatch(/^https:\/\//);
  });

  it.each(otherPages)('tells apart %s', (_name, a, b) => {
    expect(linkIdentity(a)).not.toBeNull();
    expect(linkIdentity(a)).not.toBe(linkIdentity(b));
  });

  it('is the page without www., tracking or trailing slash, over https', () => {
    expect(linkIdentity('http://www.Example.org/page/?utm_source=x&b=2&a=1#:~:text=hi')).toBe(
      'https://example.org/page?a=1&b=2',
    );
  });

  it('is null, never an error, for what is not an http(s) URL', () => {
    for (const bad of [
      '',
      '   ',
      'javascript:alert(1)',
      'JavaScript:void(0)',
      'data:text/html,<b>x</b>',
      'mailto:ada@example.org',
      'ftp://files.example/x',
      'file:///home/ada/notes.txt',
      'chrome://settings',
      'https://',
      'https://exa mple.org/',
      'http://[::1',
      `https://example.org/${'a'.repeat(2048)}`,
    ]) {
      expect(linkIdentity(bad), bad).toBeNull();
    }
  });

  it('keys, without throwing, URLs pasted with a NUL or half of an emoji', () => {
    expect(linkIdentity('https://example.org/a\u0000b')).toBe('https://example.org/a%00b');
    expect(linkIdentity('https://example.org/cut-\ud83d')).toBe('https://example.org/cut-%EF%BF%BD');
    expect(linkIdentity('https://exa\u0000mple.org/')).toBeNull();
    expect(linkIdentity('https://example.org/?q=\udc00')).toBe('https://example.org/?q=%EF%BF%BD');
  });

  it('reads a URL as users type it, host and path without a scheme', () => {
    expect(linkIdentity('example.org/page')).toBe('https://example.org/page');
    expect(linkIdentity('localhost:3000/x')).toBe('https://localhost:3000/x');
  });

  it('keeps its own key: a key is its own identity', () => {
    for (const [, urls] of samePage) {
      const key = linkIdentity(urls[0]!)!;
      expect(linkIdentity(key)).toBe(key);
    }
  });
});
