import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { PreviewAnswer } from '../../src/backend/link-preview.ts';
import { askForPreviews, previewAsks } from '../../src/data/preview-asks.ts';
import { mutate } from '../../src/data/mutate.ts';
import { linkPreviewDrainer } from '../../src/sync/link-previews.ts';
import { ctx, freshDb } from '../data/helpers.ts';
import { makeDirectory, makeLink, ME } from '../support/builders.ts';

/** The drainer with an asker that answers from `answers` by link id, recording what it was asked. */
function setUp(answers: Record<string, PreviewAnswer>, clock = { now: 0 }) {
  const db = freshDb();
  const asked: { id: string; retry: boolean }[] = [];
  let syncs = 0;
  const drain = linkPreviewDrainer({
    db,
    ask: async (id, retry) => {
      asked.push({ id, retry });
      return answers[id] ?? { kind: 'later' };
    },
    sync: () => {
      syncs += 1;
    },
    now: () => clock.now,
  });
  return { db, asked, drain, syncs: () => syncs };
}

describe('the preview asks of a device', () => {
  it('waits for a link still in the outbox, then asks once and drops the answered ask', async () => {
    const { db, asked, drain, syncs } = setUp({ a: { kind: 'answered' } });
    const directory = makeDirectory({ owner_id: ME });
    await db.link_directories.put(directory);
    await mutate(
      db,
      'link.create',
      { id: 'a', directory_id: directory.id, url: 'https://a.example', title: 'A' },
      ctx(),
    );
    await askForPreviews(db, ['a']);
    await drain();
    expect(asked).toEqual([]);
    // The push answered: the outbox no longer holds the link.
    await db.outbox.clear();
    await drain();
    expect(asked).toEqual([{ id: 'a', retry: false }]);
    expect(await previewAsks(db)).toEqual([]);
    expect(syncs()).toBe(1);
    await drain();
    expect(asked).toHaveLength(1);
  });

  it('drops an ask for a link that is gone, keeps one that could not be sent, and holds all after a 429', async () => {
    const clock = { now: 1000 };
    const { db, asked, drain } = setUp(
      { gone: { kind: 'gone' }, busy: { kind: 'later', waitMs: 60_000 }, offline: { kind: 'later' } },
      clock,
    );
    await askForPreviews(db, ['gone', 'offline']);
    await drain();
    expect((await previewAsks(db)).map((ask) => ask.id)).toEqual(['offline']);
    await askForPreviews(db, ['busy'], true);
    asked.length = 0;
    await drain();
    expect(asked.map((ask) => ask.id).sort()).toEqual(['busy', 'offline']);
    asked.length = 0;
    await drain();
    expect(asked).toEqual([]);
    clock.now += 60_000;
    await drain();
    expect(asked).toContainEqual({ id: 'busy', retry: true });
  });

  it('keeps a retry when the same link is asked for plainly, and one entry per link', async () => {
    const { db } = setUp({});
    await askForPreviews(db, ['x'], true);
    await askForPreviews(db, ['x', 'y']);
    expect(await previewAsks(db)).toEqual([
      { id: 'x', retry: true },
      { id: 'y', retry: false },
    ]);
  });

  it('a link saved with another URL loses what was read of the old page; the same URL keeps it', async () => {
    const { db } = setUp({});
    const directory = makeDirectory({ owner_id: ME });
    const read = {
      site_name: 'Site',
      icon_url: 'https://a.example/i.png',
      image_url: 'https://a.example/c.png',
      preview_state: 'done' as const,
      previewed_at: '2026-11-27T00:00:00.000Z',
      broken_at: '2026-11-26T00:00:00.000Z',
    };
    const link = makeLink({ directory_id: directory.id, url: 'https://a.example/', ...read });
    await db.link_directories.put(directory);
    await db.saved_links.put(link);
    await mutate(
      db,
      'link.update',
      { id: link.id, url: 'https://a.example/', title: 'Same page' },
      ctx({ tier: 'pro' }),
    );
    expect(await db.saved_links.get(link.id)).toMatchObject({ title: 'Same page', ...read });
    await mutate(db, 'link.update', { id: link.id, url: 'https://b.example/' }, ctx({ tier: 'pro' }));
    expect(await db.saved_links.get(link.id)).toMatchObject({
      url: 'https://b.example/',
      site_name: null,
      icon_url: null,
      image_url: null,
      preview_state: null,
      previewed_at: null,
      broken_at: null,
    });
  });
});
