import { describe, expect, it } from 'vitest';
import type { PendingWrite } from '../../../src/data/pending-writes.ts';
import { overlay, type RowView } from '../../../src/data/queries/live-rows.ts';
import type { LinkRow } from '../../../src/data/rows.ts';
import { makeLink } from '../../support/builders.ts';

describe('overlay', () => {
  const view: RowView<LinkRow> = {
    belongs: (link) => link.directory_id === 'd1',
    compare: (a, b) => b.created_at.localeCompare(a.created_at),
  };
  const at = (day: number, overrides: Partial<LinkRow> = {}) =>
    makeLink({ directory_id: 'd1', created_at: `2026-03-${String(day).padStart(2, '0')}T00:00:00.000Z`, ...overrides });
  const write = (key: string, row: LinkRow | null): PendingWrite => ({ key, row, epoch: null });

  it('inserts in order, replaces in place, removes, and leaves rows of other lists out', () => {
    const [a, b, c] = [at(10), at(8), at(6)];
    const rows = [a, b, c];
    const added = at(9, { title: 'new' });
    const renamed = { ...b, title: 'renamed' };
    const elsewhere = at(30, { directory_id: 'd2' });
    const out = overlay(
      rows,
      [write(added.id, added), write(b.id, renamed), write(c.id, null), write(elsewhere.id, elsewhere)],
      view,
    );
    expect(out.map((link) => link.title)).toEqual([a.title, 'new', 'renamed']);
    expect(rows).toEqual([a, b, c]);
  });

  it('the latest write of a row wins, and a row moved to another list leaves this one', () => {
    const a = at(10);
    const out = overlay([a], [write(a.id, { ...a, title: 'one' }), write(a.id, { ...a, title: 'two' })], view);
    expect(out.map((link) => link.title)).toEqual(['two']);
    expect(overlay([a], [write(a.id, { ...a, directory_id: 'd2' })], view)).toEqual([]);
  });

  it('with no writes, the rows are returned as they are', () => {
    const rows = [at(1)];
    expect(overlay(rows, [], view)).toBe(rows);
  });
});
