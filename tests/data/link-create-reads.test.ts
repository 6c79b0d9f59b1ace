import { describe, expect, it } from 'vitest';
import { mutate } from '../../src/data/mutate.ts';
import { makeDirectory, makeLink, ME, uuid } from '../support/builders.ts';
import { countKeysRead, ctx, freshDb } from './helpers.ts';

describe('what a new link reads in its transaction', () => {
  it('reads its directory once (checked, then applied with the row read), and a rebase still reads it', async () => {
    const db = freshDb();
    const reads = countKeysRead(db, 'link_directories');
    const directory = makeDirectory({ owner_id: ME });
    await db.link_directories.put(directory);
    reads.n = 0;
    const id = uuid();
    await mutate(db, 'link.create', { id, directory_id: directory.id, url: 'https://a.test', title: 'A' }, ctx());
    expect(reads.n).toBe(1);
    const saved = await db.saved_links.get(id);
    expect(saved).toMatchObject({ directory_id: directory.id, owner_id: ME, title: 'A' });
    // Another transaction's apply (a rebase) reads the directory itself.
    const { mutators } = await import('../../src/data/mutators.ts');
    const other = makeLink({ directory_id: directory.id });
    reads.n = 0;
    await db.transaction('rw', db.link_directories, db.saved_links, db.counts, () =>
      mutators['link.create'].apply(
        db,
        { id: other.id, directory_id: directory.id, url: other.url, title: 'B' },
        ctx(),
      ),
    );
    expect(reads.n).toBe(1);
    expect((await db.saved_links.get(other.id))?.owner_id).toBe(directory.owner_id);
  });
});
