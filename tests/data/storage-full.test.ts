/**
 * Storage full (docs/faults.md): IndexedDB refusing a change's writes for want of space aborts its
 * one transaction (nothing stored, nothing queued, the waiting queue intact) and the user is told
 * STORAGE_FULL; once space is freed the same change goes through. IndexedDB here is fake-indexeddb,
 * which has no quota: the refusal is raised at Dexie's storage layer, as the browser's is.
 */
import { Dexie, type DBCore, type DBCoreMutateRequest } from 'dexie';
import { beforeEach, expect, it } from 'vitest';
import type { LinkboardDb } from '../../src/data/db.ts';
import { mutate, mutateMany } from '../../src/data/mutate.ts';
import { MutationError } from '../../src/data/mutation-error.ts';
import { isQuotaError, STORAGE_FULL, StorageFullError, storageFullOr } from '../../src/data/storage-full.ts';
import { makeDirectory, uuid } from '../support/builders.ts';
import { ctx, freshDb, snapshot } from './helpers.ts';

let db: LinkboardDb;
let full = false;
const pro = ctx({ tier: 'pro' });
const dir = makeDirectory();

function quotaExceeded(): DOMException {
  return new DOMException('The quota has been exceeded.', 'QuotaExceededError');
}

beforeEach(async () => {
  full = false;
  db = freshDb();
  // The device's storage, full when `full` is set: every write of a transaction is refused.
  db.use({
    stack: 'dbcore',
    name: 'full-device',
    create: (down: DBCore): DBCore => ({
      ...down,
      table: (name) => {
        const table = down.table(name);
        return {
          ...table,
          mutate: (request: DBCoreMutateRequest) => (full ? Promise.reject(quotaExceeded()) : table.mutate(request)),
        };
      },
    }),
  });
  await db.link_directories.put(dir);
});

const linkArgs = (title: string) => ({
  id: uuid(),
  directory_id: dir.id,
  url: `https://example.com/${encodeURIComponent(title)}`,
  title,
});

it('tells the user the device is out of space; nothing of the change is stored or queued, the queue is intact', async () => {
  const waiting = await mutate(db, 'link.create', linkArgs('Waiting'), pro);
  const before = await snapshot(db);
  full = true;
  const args = linkArgs('No room');
  const refused = mutate(db, 'link.create', args, pro);
  await expect(refused).rejects.toBeInstanceOf(StorageFullError);
  await expect(refused).rejects.toThrow(STORAGE_FULL);
  full = false;
  expect(await snapshot(db)).toEqual(before);
  expect((await db.outbox.toArray()).map((row) => row.id)).toEqual([waiting.id]);
  // Space freed: the same change goes through and is queued after the one waiting.
  const again = await mutate(db, 'link.create', args, pro);
  expect((await db.outbox.orderBy('seq').toArray()).map((row) => row.id)).toEqual([waiting.id, again.id]);
  expect(await db.saved_links.get(args.id)).toMatchObject({ title: 'No room' });
});

it('a batch (an import) with no room is refused whole with the same message', async () => {
  const before = await snapshot(db);
  full = true;
  const steps = [linkArgs('A'), linkArgs('B')].map((args) => ({ name: 'link.create' as const, args }));
  await expect(mutateMany(db, steps, pro)).rejects.toThrow(STORAGE_FULL);
  full = false;
  expect(await snapshot(db)).toEqual(before);
});

it('a refusal keeps its own message; other errors are not taken for a full device', async () => {
  full = true;
  await expect(mutate(db, 'link.create', { ...linkArgs('x'), title: '' }, pro)).rejects.toBeInstanceOf(MutationError);
  const other = new Error('disk on fire');
  expect(storageFullOr(other)).toBe(other);
  expect(isQuotaError(new DOMException('gone', 'UnknownError'))).toBe(false);
});

it('knows the quota error however it is wrapped', () => {
  expect(isQuotaError(quotaExceeded())).toBe(true);
  // An aborted transaction: Dexie's AbortError with the cause as `inner`.
  expect(isQuotaError(new Dexie.AbortError('Transaction aborted', quotaExceeded()))).toBe(true);
  expect(isQuotaError(new Dexie.QuotaExceededError('full'))).toBe(true);
  expect(isQuotaError(new Error('wrapped', { cause: quotaExceeded() }))).toBe(true);
  expect(storageFullOr(quotaExceeded())).toBeInstanceOf(StorageFullError);
});
