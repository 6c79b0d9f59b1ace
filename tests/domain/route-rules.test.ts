import { describe, expect, it } from 'vitest';
import { isVisitorPath, pagePath, redirectFor, returnPath, type Viewer } from '../../src/domain/route-rules.ts';

const signedOut: Viewer = { status: 'signed-out' };
const ada: Viewer = { status: 'signed-in', username: 'ada' };

describe('pagePath', () => {
  it('turns spaces into hyphens and appends the username for scoped pages only', () => {
    expect(pagePath('Public Profile')).toBe('/Public-Profile');
    expect(pagePath('Dashboard', 'ada')).toBe('/Dashboard/ada');
    expect(pagePath('Profile', 'ada')).toBe('/Profile');
    expect(pagePath('Links', null)).toBe('/Links');
  });
});

describe('redirectFor', () => {
  it('never moves anyone while the user is loading', () => {
    expect(redirectFor('/Dashboard/bob', { status: 'loading' })).toBeNull();
  });

  it.each(['/dashboard', '/Calendar', '/upcoming/x', '/profile', '/links', '/Upgrade/ada', '/Links/ada', '/voting'])(
    'sends a visitor away from %s',
    (path) => expect(redirectFor(path, signedOut)).toBe('/'),
  );

  it.each(['/Links/dir/1', '/links/ada/dir/1', '/share/dir/1', '/', '/Login', '/PublicProfile', '/Contact'])(
    'lets a visitor open %s',
    (path) => expect(redirectFor(path, signedOut)).toBeNull(),
  );

  it.each([
    ['/dashboard', '/Dashboard/ada'],
    ['/Links', '/Links/ada'],
    ['/calendar', '/Calendar/ada'],
    ['/Upcoming', '/Upcoming/ada'],
    ['/upgrade', '/Upgrade/ada'],
  ])('completes the bare path %s to %s', (path, target) => expect(redirectFor(path, ada)).toBe(target));

  it('compares the path username case-insensitively and sends a stranger home', () => {
    expect(redirectFor('/Dashboard/ADA', ada)).toBeNull();
    expect(redirectFor('/Dashboard/bob', ada)).toBe('/');
    expect(redirectFor('/Profile/bob', ada)).toBe('/');
    expect(redirectFor('/Calendar/bob', { status: 'signed-in', username: null })).toBe('/');
  });

  it('reads only the pages of the table, never names every object has', () => {
    // /constructor is the public profile of a user named so, not a page to complete.
    for (const path of ['/constructor', '/toString', '/__proto__']) expect(redirectFor(path, ada)).toBeNull();
    expect(pagePath('constructor', 'ada')).toBe('/constructor');
  });

  it('keeps shared directory views open to a signed-in user of another name', () => {
    expect(redirectFor('/Links/bob/dir/42', ada)).toBeNull();
    expect(isVisitorPath('/LINKS/bob/dir/42')).toBe(true);
  });

  it('sends a visitor with a page shared into the app to sign in, and lets a signed-in user add it', () => {
    expect(redirectFor('/share-target', signedOut)).toBe('/Login?next=%2Fshare-target');
    const shared = '?url=https%3A%2F%2Fexample.com%2Fa%3Fb%3D1&title=A+%26+B';
    const login = redirectFor('/share-target', signedOut, shared);
    expect(login).toMatch(/^\/Login\?next=/);
    // The whole shared page survives the round trip through the sign-in page.
    expect(returnPath(new URL(login!, 'https://x.test').search)).toBe(`/share-target${shared}`);
    expect(redirectFor('/Login', ada, new URL(login!, 'https://x.test').search)).toBe(`/share-target${shared}`);
    expect(redirectFor('/share-target', { status: 'loading' })).toBeNull();
    expect(redirectFor('/share-target', ada)).toBeNull();
  });

  it('returns only to paths inside the app after signing in', () => {
    expect(returnPath('?next=%2FCalendar%2Fada')).toBe('/Calendar/ada');
    expect(returnPath('next=/share-target')).toBe('/share-target');
    expect(returnPath('')).toBeNull();
    expect(returnPath('?next=https%3A%2F%2Fevil.test')).toBeNull();
    expect(returnPath('?next=%2F%2Fevil.test')).toBeNull();
    expect(returnPath('?next=%2F%5Cevil.test')).toBeNull();
    expect(returnPath('?next=%2FLogin%3Fnext%3D%2FLogin')).toBeNull();
    expect(redirectFor('/Login', ada, '?next=https%3A%2F%2Fevil.test')).toBe('/Dashboard/ada');
  });

  it('sends a signed-in user away from /Login to their dashboard', () => {
    expect(redirectFor('/Login', ada)).toBe('/Dashboard/ada');
    // A confirmation link's outcome goes along (codes only, cut short), for the shell to say.
    expect(redirectFor('/Login', ada, '?confirmed=signup&x=1')).toBe('/Dashboard/ada?confirmed=signup');
    expect(redirectFor('/Login', ada, '?confirm_error=' + 'a'.repeat(100))).toBe(
      `/Dashboard/ada?confirm_error=${'a'.repeat(20)}`,
    );
    expect(redirectFor('/login', { status: 'signed-in', username: null })).toBe('/Dashboard');
  });
});
