// @vitest-environment jsdom
import { beforeEach, expect, it } from 'vitest';
import type { LinkboardDb } from '../../src/data/db.ts';
import { mutate, mutateMany } from '../../src/data/mutate.ts';
import { MutationError } from '../../src/data/mutation-error.ts';
import { makeDirectory, uuid } from '../support/builders.ts';
import { ctx, freshDb } from './helpers.ts';

let db: LinkboardDb;
const pro = ctx({ tier: 'pro' });
const dir = makeDirectory();

beforeEach(async () => {
  db = freshDb();
  await db.link_directories.put(dir);
});

/** Whether the page would ask before unloading now: a `beforeunload` as the browser sends it. */
function asksBeforeUnload(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

const link = (title: string) => ({ id: uuid(), directory_id: dir.id, url: 'https://example.com/a', title });

it('asks before the page unloads while a save is on its way to IndexedDB, and not once it is there', async () => {
  expect(asksBeforeUnload()).toBe(false);
  const args = link('A');
  const saving = mutate(db, 'link.create', args, pro);
  expect(asksBeforeUnload()).toBe(true);
  expect(await db.saved_links.get(args.id)).toBeUndefined();
  await saving;
  expect(await db.saved_links.get(args.id)).toBeDefined();
  expect(asksBeforeUnload()).toBe(false);
});

it('keeps asking until the last of overlapping saves is in', async () => {
  const first = mutate(db, 'link.create', link('A'), pro);
  const second = mutate(db, 'link.create', link('B'), pro);
  await first;
  expect(asksBeforeUnload()).toBe(true);
  await second;
  expect(asksBeforeUnload()).toBe(false);
});

it('stops asking when a save is refused', async () => {
  const refused = mutate(db, 'link.create', { ...link('A'), url: 'javascript:alert(1)' }, pro);
  expect(asksBeforeUnload()).toBe(true);
  await expect(refused).rejects.toBeInstanceOf(MutationError);
  expect(asksBeforeUnload()).toBe(false);
});

it('asks while an import’s batch is written', async () => {
  const importing = mutateMany(
    db,
    [1, 2, 3].map((n) => ({ name: 'link.create' as const, args: link(`L${n}`) })),
    pro,
  );
  expect(asksBeforeUnload()).toBe(true);
  expect((await importing).queued).toHaveLength(3);
  expect(asksBeforeUnload()).toBe(false);
});
