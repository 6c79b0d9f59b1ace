// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { act } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LinkRow } from '../../../src/data/rows.ts';
import { sliceOf, type LinkSlice } from '../../../src/data/queries/link-window.ts';
import { LinkCollection } from '../../../src/features/links/link-collection.tsx';
import { PLACEHOLDER_AFTER_MS } from '../../../src/features/links/virtual-rows.tsx';
import { makeLink } from '../../support/builders.ts';

afterEach(cleanup);

// jsdom lays nothing out: an element's client size is the height its style sets (the windowed
// viewport sets one), as a browser would report it.
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return Number.parseFloat(this.style.height) || 0;
    },
  });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 1024 });
});
afterAll(() => {
  delete (HTMLElement.prototype as { clientHeight?: number }).clientHeight;
  delete (HTMLElement.prototype as { clientWidth?: number }).clientWidth;
});

function links(count: number, tags: string[] = []): LinkRow[] {
  return Array.from({ length: count }, (_, i) =>
    makeLink({
      id: `l${i}`,
      directory_id: 'd1',
      url: `https://site${i}.example.com/a/rather/long/path`,
      title: `Link ${i}`,
      tags,
      created_by: 'u1',
      owner_id: 'u1',
    }),
  );
}

const noop = () => undefined;

describe('the links list and grid', () => {
  it('shows 2 tags in the list and 2 plus +N in the grid, and a shortened url in cards', () => {
    const rows = links(1, ['a', 'b', 'c', 'd']);
    render(<LinkCollection links={sliceOf(rows)} view="grid" canEdit onEdit={noop} onDelete={noop} />);
    expect(screen.getByText('+2')).toBeInTheDocument();
    expect(screen.queryByText('c')).not.toBeInTheDocument();
    expect(screen.getByText('https://site0.example.com/a/ra...')).toBeInTheDocument();
    cleanup();
    render(<LinkCollection links={sliceOf(rows)} view="list" canEdit onEdit={noop} onDelete={noop} />);
    expect(screen.getByText('a')).toBeInTheDocument();
    expect(screen.getByText('b')).toBeInTheDocument();
    expect(screen.queryByText('+2')).not.toBeInTheDocument();
  });

  it('mounts only a window of rows for 10,000 links, following the scroll', () => {
    render(<LinkCollection links={sliceOf(links(10_000))} view="list" canEdit onEdit={noop} onDelete={noop} />);
    const mounted = screen.getAllByRole('link');
    expect(mounted.length).toBeLessThan(60);
    expect(screen.getByRole('link', { name: 'Link 0' })).toBeInTheDocument();
    fireEvent.scroll(screen.getByRole('region', { name: 'Links list' }), { target: { scrollTop: 56 * 5000 } });
    expect(screen.getByRole('link', { name: 'Link 5000' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Link 0' })).not.toBeInTheDocument();
  });

  it('windows the grid too', () => {
    render(<LinkCollection links={sliceOf(links(10_000))} view="grid" canEdit onEdit={noop} onDelete={noop} />);
    expect(screen.getAllByTestId('link-card').length).toBeLessThan(100);
  });

  it('hides Edit and Delete from readers', () => {
    render(<LinkCollection links={sliceOf(links(1))} view="list" canEdit={false} onEdit={noop} onDelete={noop} />);
    // The menu opens from the keyboard as well as the pointer (Radix DropdownMenu).
    fireEvent.keyDown(screen.getByRole('button', { name: 'Actions for Link 0' }), { key: 'Enter' });
    expect(screen.getByRole('menuitem', { name: 'Share' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Edit' })).not.toBeInTheDocument();
  });

  it('runs the chosen action from the menu and closes it with Escape', async () => {
    const edited: string[] = [];
    render(
      <LinkCollection
        links={sliceOf(links(1))}
        view="list"
        canEdit
        onEdit={(link) => edited.push(link.id)}
        onDelete={noop}
      />,
    );
    const trigger = () => screen.getByRole('button', { name: 'Actions for Link 0' });
    fireEvent.keyDown(trigger(), { key: 'Enter' });
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Edit', 'Share', 'Delete']);
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    // The focus is back on the menu's button.
    await waitFor(() => expect(trigger()).toHaveFocus());
    fireEvent.keyDown(trigger(), { key: 'Enter' });
    fireEvent.click(screen.getByRole('menuitem', { name: 'Edit' }));
    expect(edited).toEqual(['l0']);
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });
});

describe('a far scroll of a windowed list', () => {
  const all = links(10_000);
  /** The 144 links from `start`, as the screen's window read gives them. */
  const windowOf = (start: number): LinkSlice => ({ total: all.length, start, rows: all.slice(start, start + 144) });
  const placeholders = () => document.querySelectorAll('[aria-hidden="true"].animate-pulse').length;
  const list = (slice: LinkSlice) => (
    <LinkCollection links={slice} view="list" canEdit onEdit={noop} onDelete={noop} onRange={noop} />
  );
  const scrollTo = (index: number) =>
    act(() => {
      const region = screen.getByRole('region', { name: 'Links list' });
      region.scrollTop = 56 * index;
      region.dispatchEvent(new Event('scroll'));
    });

  it('renders the rows of a window read in time with no placeholder pass before them', () => {
    const view = render(list(windowOf(0)));
    scrollTo(5_000);
    expect(screen.queryByRole('link', { name: 'Link 0' })).toBeNull();
    expect(placeholders()).toBe(0);
    view.rerender(list(windowOf(4_950)));
    expect(screen.getByRole('link', { name: 'Link 5000' })).toBeInTheDocument();
    expect(placeholders()).toBe(0);
  });

  it('shows placeholders for rows not read after PLACEHOLDER_AFTER_MS, then the rows', async () => {
    const view = render(list(windowOf(0)));
    scrollTo(5_000);
    expect(placeholders()).toBe(0);
    await act(() => new Promise((resolve) => setTimeout(resolve, PLACEHOLDER_AFTER_MS + 20)));
    expect(placeholders()).toBeGreaterThan(0);
    view.rerender(list(windowOf(4_950)));
    expect(screen.getByRole('link', { name: 'Link 5000' })).toBeInTheDocument();
    expect(placeholders()).toBe(0);
  });
});
