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
