import { describe, expect, it } from 'vitest';
import {
  ONLY_WEB_PAGES,
  isWebPage,
  linkboardOrigin,
  planSave,
  shareUrl,
  whatToSave,
} from '../../extension/lib/share.ts';
import { sharedPage } from '../../src/features/links/share-target/shared-page.ts';

const origin = 'https://links.example.com';

describe("the extension's pages", () => {
  it('saves web pages only', () => {
    for (const url of ['https://a.example/x?y=1#z', 'http://127.0.0.1:4173/', 'HTTPS://A.EXAMPLE/']) {
      expect(isWebPage(url), url).toBe(true);
    }
    for (const url of [
      'chrome://settings/',
      'chrome-extension://abcdefgh/options.html',
      'file:///home/ada/a.html',
      'about:blank',
      'data:text/html,<p>x</p>',
      'javascript:void(0)',
      'edge://newtab/',
      'view-source:https://a.example/',
      'ftp://files.example/x',
      '',
      undefined,
      'not a url',
    ]) {
      expect(isWebPage(url), String(url)).toBe(false);
    }
  });

  it('refuses a non-web page with the message and opens nothing', () => {
    for (const url of ['chrome://newtab/', 'file:///tmp/a.html', 'about:blank', 'data:,x']) {
      expect(planSave(origin, { url, title: 'x', note: '' })).toEqual({ kind: 'refuse', message: ONLY_WEB_PAGES });
    }
    expect(ONLY_WEB_PAGES).toBe('Only web pages (http or https) can be saved.');
  });
});

describe('what a click saves', () => {
  it('saves the tab with its title from the toolbar button', () => {
    expect(whatToSave({ url: 'https://a.example/p', title: ' A page ' })).toEqual({
      url: 'https://a.example/p',
      title: 'A page',
      note: '',
    });
  });

  it('saves the page with the selection as the note from the menu on a page or a selection', () => {
    expect(
      whatToSave(
        { url: 'https://a.example/p', title: 'A page' },
        { pageUrl: 'https://a.example/p', selectionText: '  a quote ' },
      ),
    ).toEqual({ url: 'https://a.example/p', title: 'A page', note: 'a quote' });
    // No tab (the menu in some frames): the page's address from the click.
    expect(whatToSave(undefined, { pageUrl: 'https://a.example/p' })).toEqual({
      url: 'https://a.example/p',
      title: '',
      note: '',
    });
  });

  it('saves the clicked link, not the page, from the menu on a link', () => {
    expect(
      whatToSave(
        { url: 'https://a.example/p', title: 'A page' },
        { pageUrl: 'https://a.example/p', linkUrl: 'https://b.example/linked', selectionText: 'why' },
      ),
    ).toEqual({ url: 'https://b.example/linked', title: '', note: 'why' });
  });
});

describe('the share url', () => {
  it("opens the app's share target with url, title and note, which the screen reads back", () => {
    const save = { url: 'https://a.example/x?y=1&z=2#frag', title: 'Ünïcode & more 😀', note: 'line 1\nline 2 = ?' };
    const url = new URL(shareUrl(origin, save));
    expect(url.origin + url.pathname).toBe('https://links.example.com/share-target');
    expect(Object.fromEntries(url.searchParams)).toEqual(save);
    expect(sharedPage(url.searchParams)).toEqual({
      url: save.url,
      title: save.title,
      notes: save.note,
      refused: false,
    });
  });

  it('leaves out an empty title and note, and cuts a long selection without halving an emoji', () => {
    expect(shareUrl(origin, { url: 'https://a.example/', title: ' ', note: '' })).toBe(
      'https://links.example.com/share-target?url=https%3A%2F%2Fa.example%2F',
    );
    const note = new URL(
      shareUrl(origin, { url: 'https://a.example/', title: '', note: `x${'😀'.repeat(6_000)}` }),
    ).searchParams.get('note')!;
    expect(note).toBe(`x${'😀'.repeat(4_999)}`);
    const title = new URL(
      shareUrl(origin, { url: 'https://a.example/', title: 't'.repeat(600), note: '' }),
    ).searchParams.get('title')!;
    expect(title).toHaveLength(500);
  });
});

describe('the Linkboard address on the options page', () => {
  it('accepts an http(s) origin, with or without a trailing slash', () => {
    expect(linkboardOrigin('https://links.example.com')).toBe('https://links.example.com');
    expect(linkboardOrigin('  https://Links.Example.com/ ')).toBe('https://links.example.com');
    expect(linkboardOrigin('http://localhost:4173')).toBe('http://localhost:4173');
    expect(linkboardOrigin('https://links.example.com:443/')).toBe('https://links.example.com');
  });

  it('refuses anything else', () => {
    for (const input of [
      '',
      'links.example.com',
      'ftp://links.example.com',
      'chrome://settings',
      'javascript:alert(1)',
      'https://links.example.com/app',
      'https://links.example.com/?x=1',
      'https://links.example.com/#x',
      'https://ada:secret@links.example.com',
      'https://',
      'https://exa mple.com',
    ]) {
      expect(linkboardOrigin(input), input).toBeNull();
    }
  });
});
