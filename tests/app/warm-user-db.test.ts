import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { warmUserDb } from '../../src/app/boot/warm-user-db.ts';
import { dbName, openUserDb } from '../../src/data/db.ts';
import { ME } from '../support/builders.ts';

const names = async (factory: IDBFactory) => (await factory.databases()).map((db) => db.name);

/** Resolves once the warm-up's open request has settled (the next open queues behind it). */
const settled = (factory: IDBFactory, name: string) =>
  new Promise<void>((resolve) => {
    const probe = factory.open(name);
    probe.onsuccess = () => {
      probe.result.close();
      resolve();
    };
    probe.onerror = () => resolve();
    probe.onupgradeneeded = () => probe.transaction?.abort();
  });

describe('warming the user database at boot', () => {
  it('creates no database on a device that has none yet', async () => {
    const factory = new IDBFactory();
    warmUserDb(ME, factory);
    await settled(factory, dbName(ME));
    expect(await names(factory)).not.toContain(dbName(ME));
  });

  it('lets the session open and upgrade the database while it holds a connection', async () => {
    const factory = new IDBFactory();
    // An older app's database: version 1 with one store.
    await new Promise<void>((resolve) => {
      const request = factory.open(dbName(ME), 1);
      request.onupgradeneeded = () => request.result.createObjectStore('old');
      request.onsuccess = () => {
        request.result.close();
        resolve();
      };
    });
    warmUserDb(ME, factory);
    await settled(factory, dbName(ME));
    const db = openUserDb(ME, { indexedDB: factory, IDBKeyRange });
    await db.open();
    expect(db.tables.map((table) => table.name)).toContain('saved_links');
    expect(await db.saved_links.count()).toBe(0);
    db.close();
  });
});
