/**
 * The search bar of design section 6 (≤ 50 ms per keystroke in a directory of 10,000 links),
 * measured on the app's own code: `matchesLink` alone, then the screen update per keystroke,
 * with the real SearchInput and LinkCollection (windowed above VIRTUALIZE_ABOVE links) rendered by
 * react-dom into jsdom. Each keystroke is an input event on the search box, timed until React
 * has committed the filtered links to the DOM.
 */
import { performance } from 'node:perf_hooks';
import { useDeferredValue, useLayoutEffect, useMemo, useState } from 'react';
import type { LinkRow } from '../../src/data/rows.ts';
import { LinkCollection } from '../../src/features/links/link-collection.tsx';
import { matchesLink } from '../../src/features/links/link-filters.ts';
import { SearchInput } from '../../src/features/links/search-input.tsx';

export interface Timings {
  samples: number[];
  median: number;
  p95: number;
}

export function timings(samples: number[]): Timings {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { samples, median, p95: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]! };
}

/** What is typed into the search box: each prefix forward, then each one back to empty. */
export function keystrokes(query: string): string[] {
  const forward = Array.from({ length: query.length }, (_, i) => query.slice(0, i + 1));
  return [...forward, ...forward.slice(0, -1).reverse(), ''];
}

/** The filter of the directory view on its own, per keystroke. */
export function measureFilter(links: readonly LinkRow[], query: string, rounds: number): Timings {
  const samples: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    for (const typed of keystrokes(query)) {
      const start = performance.now();
      links.filter((link) => matchesLink(link, typed));
      samples.push(performance.now() - start);
    }
  }
  return timings(samples);
}

let dom: { window: Window & typeof globalThis } | null = null;

/** A browser-like global scope for react-dom, installed once, before react-dom is loaded. */
async function installDom(): Promise<Window & typeof globalThis> {
  if (dom) return dom.window;
  const { JSDOM } = await import('jsdom');
  dom = new JSDOM('<!doctype html><html><body></body></html>', { url: 'http://localhost/', pretendToBeVisual: true });
  const { window } = dom;
  const globals: Record<string, unknown> = {
    window,
    document: window.document,
    HTMLElement: window.HTMLElement,
    HTMLIFrameElement: window.HTMLIFrameElement,
    Node: window.Node,
    Event: window.Event,
    MutationObserver: window.MutationObserver,
    getComputedStyle: window.getComputedStyle.bind(window),
  };
  for (const [name, value] of Object.entries(globals)) {
    Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
  }
  if (typeof globalThis.navigator === 'undefined') {
    Object.defineProperty(globalThis, 'navigator', { value: window.navigator, configurable: true });
  }
  return window;
}

const noop = () => undefined;

/** The directory view's links tab as it filters (src/features/links/directory-view.tsx). */
function SearchedLinks(props: { links: LinkRow[]; view: 'grid' | 'list'; onCommit(query: string): void }) {
  const { links, view, onCommit } = props;
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search);
  const shown = useMemo(() => links.filter((link) => matchesLink(link, deferred)), [links, deferred]);
  useLayoutEffect(() => onCommit(deferred), [deferred, onCommit]);
  return (
    <>
      <SearchInput value={search} onChange={setSearch} />
      {shown.length > 0 && <LinkCollection links={shown} view={view} canEdit onEdit={noop} onDelete={noop} />}
    </>
  );
}

/**
 * Types `query` into the search box one key at a time (then deletes it again), `rounds` times
 * after one round of warm-up, and times each keystroke until the filtered links are in the DOM.
 */
export async function measureTyping(
  links: LinkRow[],
  view: 'grid' | 'list',
  query: string,
  rounds: number,
): Promise<Timings & { mounted: number }> {
  const window = await installDom();
  const { createRoot } = await import('react-dom/client');
  const { flushSync } = await import('react-dom');
  const container = window.document.createElement('div');
  window.document.body.append(container);

  let waiting: { query: string; done(): void } | null = null;
  const onCommit = (committed: string) => {
    if (waiting && committed === waiting.query) waiting.done();
  };
  const root = createRoot(container);
  flushSync(() => root.render(<SearchedLinks links={links} view={view} onCommit={onCommit} />));

  const input = container.querySelector('input')!;
  const setValue = Object.getOwnPropertyDescriptor(window.HTMLInputElement.prototype, 'value')!.set!;
  const type = (typed: string) =>
    new Promise<void>((resolve) => {
      waiting = { query: typed, done: resolve };
      setValue.call(input, typed);
      input.dispatchEvent(new window.Event('input', { bubbles: true }));
    });

  const samples: number[] = [];
  let mounted = 0;
  for (let round = 0; round <= rounds; round += 1) {
    for (const typed of keystrokes(query)) {
      const start = performance.now();
      await type(typed);
      const elapsed = performance.now() - start;
      if (round > 0) samples.push(elapsed);
      // The DOM shows the links of this query, and only a window of them.
      const first = links.find((link) => matchesLink(link, typed));
      const shown = container.querySelectorAll('a[href]');
      if (first && shown[0]?.textContent !== first.title)
        throw new Error(`search bench: wrong first link for '${typed}'`);
      mounted = Math.max(mounted, shown.length);
    }
  }
  root.unmount();
  container.remove();
  return { ...timings(samples), mounted };
}
