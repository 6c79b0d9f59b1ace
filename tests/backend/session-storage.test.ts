import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { createKeyValueStore } from '../../src/backend/auth-idb.ts';
import { createSessionStorage, readStoredSessionUser } from '../../src/backend/session-storage.ts';

function memoryStorage(initial: Record<string, string> = {}): Storage {
  const data = new Map(Object.entries(initial));
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (key) => data.get(key) ?? null,
    key: (index) => [...data.keys()][index] ?? null,
    removeItem: (key) => void data.delete(key),
    setItem: (key, value) => void data.set(key, value),
  };
}

const session = JSON.stringify({
  access_token: 'a',
  refresh_token: 'r',
  user: { id: 'u1', email: 'ada@example.com', user_metadata: { username: 'ada' } },
});

describe('the IndexedDB session storage', () => {
  it('stores, reads and removes items asynchronously', async () => {
    const storage = createSessionStorage(
      createKeyValueStore(() => new IDBFactory()),
      () => null,
    );
    expect(await storage.getItem('linkboard-auth')).toBeNull();
    await storage.setItem('linkboard-auth', session);
    expect(await storage.getItem('linkboard-auth')).toBe(session);
    await storage.removeItem('linkboard-auth');
    expect(await storage.getItem('linkboard-auth')).toBeNull();
  });

  it('is shared by every adapter over the same database (page and worker)', async () => {
    const factory = new IDBFactory();
    const page = createSessionStorage(
      createKeyValueStore(() => factory),
      () => null,
    );
    const worker = createSessionStorage(
      createKeyValueStore(() => factory),
      () => null,
    );
    await page.setItem('linkboard-auth', session);
    expect(await worker.getItem('linkboard-auth')).toBe(session);
  });

  it('moves a session left in localStorage over once', async () => {
    const legacy = memoryStorage({ 'linkboard-auth': session });
    const store = createKeyValueStore(() => new IDBFactory());
    const storage = createSessionStorage(store, () => legacy);
    expect(await storage.getItem('linkboard-auth')).toBe(session);
    expect(legacy.getItem('linkboard-auth')).toBeNull();
    expect(await store.get('session:linkboard-auth')).toBe(session);
    // Later writes stay in IndexedDB only.
    await storage.setItem('linkboard-auth', 'newer');
    expect(await storage.getItem('linkboard-auth')).toBe('newer');
    expect(legacy.getItem('linkboard-auth')).toBeNull();
  });

  it('reads the stored user without the network', async () => {
    const storage = createSessionStorage(
      createKeyValueStore(() => new IDBFactory()),
      () => null,
    );
    expect(await readStoredSessionUser(storage)).toBeNull();
    await storage.setItem('linkboard-auth', session);
    expect(await readStoredSessionUser(storage)).toEqual({ id: 'u1', email: 'ada@example.com', username: 'ada' });
    await storage.setItem('linkboard-auth', 'not json');
    expect(await readStoredSessionUser(storage)).toBeNull();
  });
});
