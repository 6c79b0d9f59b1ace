import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { mutate } from '../../../src/data/mutate.ts';
import { readLinkWindow } from '../../../src/data/queries/link-window.ts';
import type { LinkRow } from '../../../src/data/rows.ts';
import { LinkCard } from '../../../src/features/links/link-card.tsx';
import { sameItem, type LinkItemProps } from '../../../src/features/links/link-item-props.ts';
import { LinkRowItem } from '../../../src/features/links/link-row.tsx';
import { ctx, freshDb } from '../../data/helpers.ts';
import { ME, makeDirectory } from '../../support/builders.ts';

const noop = () => undefined;
const props = (link: LinkRow): LinkItemProps => ({ link, canEdit: true, onEdit: noop, onDelete: noop });

describe("a link card's memo", () => {
  it('renders a window read again (new objects of the same links) as nothing new, a changed link anew', async () => {
    const db = freshDb();
    const directory = makeDirectory({ owner_id: ME });
    await db.link_directories.put(directory);
    const pro = ctx({ tier: 'pro' });
    const id = crypto.randomUUID();
    await mutate(
      db,
      'link.create',
      { id, directory_id: directory.id, url: 'a.test', title: 'A', tags: ['x', 'y'] },
      pro,
    );
    const read = async () => (await readLinkWindow(db, directory.id, 0, 48)).slice.rows[0]!;
    const [first, again] = [await read(), await read()];
    expect(again).not.toBe(first);
    expect(sameItem(props(first), props(again))).toBe(true);
    await mutate(db, 'link.update', { id, tags: ['x', 'z'] }, pro);
    expect(sameItem(props(first), props(await read()))).toBe(false);
    await mutate(db, 'link.update', { id, tags: ['x', 'y'], title: 'B' }, pro);
    expect(sameItem(props(first), props(await read()))).toBe(false);
    expect(sameItem(props(first), { ...props(first), canEdit: false })).toBe(false);
    // The grid's cards and the list's rows compare so.
    for (const item of [LinkCard, LinkRowItem])
      expect((item as unknown as { compare: unknown }).compare).toBe(sameItem);
  });
});
