/** The palette's links held in memory (src/features/palette/held-links.ts), read as stored. */
import { afterEach, describe, expect, it } from 'vitest';
import type { LinkboardDb } from '../../../src/data/db.ts';
import { readHeldLinks } from '../../../src/features/palette/held-links.ts';
import { makeDirectory, makeLink, ME } from '../../support/builders.ts';
import { freshDb } from '../../data/helpers.ts';

let db: LinkboardDb | undefined;
afterEach(() => db?.close());

describe("the palette's held links", () => {
  it('holds every link a page at a time, and none in a workspace of more than the most it holds', async () => {
    db = freshDb();
    const [one, two] = [makeDirectory({ owner_id: ME }), makeDirectory({ owner_id: ME })];
    await db.link_directories.bulkPut([one, two]);
    await db.saved_links.bulkPut([
      makeLink({ directory_id: one.id, title: 'Crème brûlée' }),
      makeLink({ directory_id: two.id, title: 'Deno manual' }),
    ]);
    const both = await readHeldLinks(db, 2);
    expect(both?.map((link) => link.row.title).sort()).toEqual(['Crème brûlée', 'Deno manual']);
    expect(both?.find((link) => link.row.title === 'Deno manual')?.words).toEqual(['deno', 'manual', 'example']);
    // The kept counts say more than the most: nothing read.
    expect(await readHeldLinks(db, 1)).toBeNull();
    await db.saved_links.bulkPut(
      Array.from({ length: 1_200 }, (_, i) => makeLink({ directory_id: one.id, title: `Page ${i}` })),
    );
    const held = (await readHeldLinks(db))!;
    expect(new Set(held.map((link) => link.row.id)).size).toBe(1_202);
  });
});
