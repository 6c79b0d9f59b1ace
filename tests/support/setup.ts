/**
 * Runs before every test file: a test that reaches the network beyond loopback fails,
 * so no test passes by accident against a live service.
 */
const realFetch = globalThis.fetch;
globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
  const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
  if (!['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) {
    throw new Error(`Unexpected network request in a test: ${url.href}`);
  }
  return realFetch(input, init);
};

// Radix measures thumbs and indicators with ResizeObserver; jsdom has no layout, so there is
// nothing to observe. Component tests (jsdom) get a stand-in.
if (typeof window !== 'undefined') {
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

// findBy*/waitFor wait up to 1 s by default; on 2 shared cores running every test file at once a
// screen's live queries can take longer to settle, and a slow machine is not a failed test.
if (typeof window !== 'undefined') {
  const { configure, cleanup } = await import('@testing-library/react');
  configure({ asyncUtilTimeout: 5000 });
  // Testing Library unmounts after each test only where `afterEach` is a global, and Vitest's are
  // not: a screen left mounted keeps its live queries answering after the file's jsdom is gone,
  // and React then renders into a window that no longer exists ("window is not defined").
  const { afterEach } = await import('vitest');
  afterEach(cleanup);
  // A burst's saves wake the live queries on a beat (src/data/burst-wakes.ts): a test's last beat
  // runs before its jsdom goes, not into a document that is gone. Imported then, not here: Dexie
  // must load after the test file's fake-indexeddb.
  afterEach(async () => (await import('../../src/data/burst-wakes.ts')).wake());
}

export {};

// Dates and times are formatted in the user's locale (src/domain/date-format.ts); the tests fix it
// to en-GB so their expectations do not depend on the machine's language. Tests of other locales
// pass theirs.
const { setDisplayLocale } = await import('../../src/domain/date-format.ts');
setDisplayLocale('en-GB');
