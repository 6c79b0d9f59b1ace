/**
 * The billing screens' stand-ins: supabase-js's functions.invoke and auth.getSession (as the
 * mocked src/backend/supabase.ts exposes them), the browser's navigation, and its online state.
 */
import { vi, type Mock } from 'vitest';

interface Backend {
  invoke: Mock;
  getSession: Mock;
}

export interface StubbedBilling {
  /** window.location.assign: where the page sent the browser. */
  assign: Mock;
  /** The next calls answer 200 with `body`. */
  answer(body: unknown): void;
  /** The next calls answer `status` (supabase-js's error shape). */
  fail(status: number, body?: unknown): void;
  /** The next call waits; the function given answers it. */
  hold(): (body: unknown) => void;
  signIn(): void;
  /** getSession answers no session (signed out elsewhere, or expired). */
  signOut(): void;
}

const ok = (body: unknown) => ({ data: body, error: null, response: new Response(JSON.stringify(body)) });

export function stubBilling(backend: Backend): StubbedBilling {
  const assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, assign });
  const signIn = () =>
    backend.getSession.mockResolvedValue({
      data: { session: { access_token: 't', user: { id: 'u1', email: 'ada@example.com' } } },
      error: null,
    });
  backend.invoke.mockReset();
  backend.getSession.mockReset();
  signIn();
  backend.invoke.mockResolvedValue(ok({ url: 'https://checkout.example/session' }));
  return {
    assign,
    signIn,
    signOut: () => backend.getSession.mockResolvedValue({ data: { session: null }, error: null }),
    answer: (body) => backend.invoke.mockResolvedValue(ok(body)),
    fail(status, body = { error: 'failed' }) {
      const response = new Response(JSON.stringify(body), { status });
      backend.invoke.mockResolvedValue({ data: null, error: new Error('FunctionsHttpError'), response });
    },
    hold() {
      let release: (body: unknown) => void = () => undefined;
      backend.invoke.mockReturnValueOnce(new Promise((resolve) => (release = (body) => resolve(ok(body)))));
      return (body) => release(body);
    },
  };
}

function setOnline(online: boolean) {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
  window.dispatchEvent(new Event(online ? 'online' : 'offline'));
}

export const goOffline = () => setOnline(false);
export const goOnline = () => setOnline(true);
