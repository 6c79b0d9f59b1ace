// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bookmarkletHref } from '../../../src/features/profile/bookmarklet.ts';
import { BookmarkletSection } from '../../../src/features/profile/bookmarklet-section.tsx';
import { sharedPage } from '../../../src/features/links/share-target/shared-page.ts';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  document.title = '';
  document.body.innerHTML = '';
});

/** Runs the bookmarklet as a browser runs a javascript: URL (percent-decoded), on this document; returns what it opened. */
function runOn(href: string): { url: URL; name: string; features: string } {
  // jsdom has no windows to open: the call is recorded (the e2e journey opens a real one).
  const open = vi.spyOn(window, 'open').mockImplementation(() => null);
  new Function(decodeURIComponent(href.slice('javascript:'.length)))();
  expect(open).toHaveBeenCalledTimes(1);
  const [url, name, features] = open.mock.calls[0]! as [string, string, string];
  return { url: new URL(url), name, features };
}

describe('the bookmarklet', () => {
  it('is a draggable link whose javascript: address React did not replace', async () => {
    render(<BookmarkletSection origin="https://links.example.com" />);
    expect(screen.getByRole('heading', { name: 'Save to Linkboard' })).toBeInTheDocument();
    expect(screen.getByText('Drag it to the bookmarks bar.')).toBeInTheDocument();
    const link = await screen.findByRole('link', { name: 'Save to Linkboard' });
    await waitFor(() => expect(link).toHaveAttribute('href', bookmarkletHref('https://links.example.com')));
    expect(link.getAttribute('href')).toMatch(/^javascript:\(function\(\)\{/);
    expect(link).toHaveAttribute('draggable', 'true');
  });

  it("opens the share target in a small window with the page's address, title and selection", () => {
    document.title = 'A page & more';
    document.body.innerHTML = '<p id="quote">a quoted line</p>';
    getSelection()!.selectAllChildren(document.getElementById('quote')!);
    const href = bookmarkletHref('https://links.example.com');
    expect(href).not.toContain('%');
    const { url, name, features } = runOn(href);
    expect(url.origin + url.pathname).toBe('https://links.example.com/share-target');
    expect(sharedPage(url.searchParams)).toEqual({
      url: location.href,
      title: 'A page & more',
      notes: 'a quoted line',
      refused: false,
    });
    expect(name).toBe('linkboard');
    expect(features).toBe('popup,width=560,height=760');
  });

  it('sends at most 10,000 characters of a long selection', () => {
    document.body.innerHTML = `<p id="long">${'x'.repeat(20_000)}</p>`;
    getSelection()!.selectAllChildren(document.getElementById('long')!);
    const { url } = runOn(bookmarkletHref('http://localhost:4173'));
    expect(url.searchParams.get('note')).toHaveLength(10_000);
  });
});
