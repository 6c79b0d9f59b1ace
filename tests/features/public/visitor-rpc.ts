/** supabase-js RPC answers as the visitor pages get them, and a fresh visitor's browser. */
import { IDBFactory } from 'fake-indexeddb';
import { useCurrentUser } from '../../../src/backend/current-user-store.ts';

export const ok = (data: unknown) => ({ data, error: null, status: 200 });

export const refusal = (hint: string, message: string, status = 403) => ({
  data: null,
  error: { message, hint, code: '42501' },
  status,
});

/** What supabase-js answers when fetch fails (no network): status 0. */
export const noNetwork = () => ({
  data: null,
  error: { message: 'TypeError: Failed to fetch', hint: '', code: '' },
  status: 0,
});

/** A fresh browser: no offline copies yet; the visitor is not signed in. */
export function freshVisitor() {
  globalThis.indexedDB = new IDBFactory();
  useCurrentUser.setState({ status: 'signed-out', user: null });
}
