// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import { anonKeyOfPage } from '../../src/backend/config.ts';
import { rememberAnonKey, workerAnonKey } from '../../src/backend/anon-key.ts';
import { createKeyValueStore } from '../../src/backend/auth-idb.ts';

describe('the anon key at run time', () => {
  it('is read from the meta element the local stack writes into index.html', () => {
    const doc = document.implementation.createHTMLDocument('app');
    expect(anonKeyOfPage(doc)).toBe('');
    doc.head.insertAdjacentHTML('beforeend', '<meta name="linkboard-anon-key" content="key.from.page">');
    expect(anonKeyOfPage(doc)).toBe('key.from.page');
  });

  it('is kept in IndexedDB by the page for the service worker', async () => {
    const factory = new IDBFactory();
    const store = createKeyValueStore(() => factory);
    expect(await workerAnonKey(store)).toBe('');
    await rememberAnonKey(store, 'key.from.page');
    expect(await workerAnonKey(createKeyValueStore(() => factory))).toBe('key.from.page');
  });
});
