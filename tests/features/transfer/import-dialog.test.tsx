// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LinkboardDb } from '../../../src/data/db.ts';
import type { MutationContext } from '../../../src/data/mutation-context.ts';
import { exportNetscapeBookmarks } from '../../../src/domain/bookmarks/netscape-export.ts';
import { ImportDialog } from '../../../src/features/transfer/import-dialog.tsx';
import { NOT_BOOKMARKS } from '../../../src/features/transfer/read-import-file.ts';
import { buildWorkspaceExport } from '../../../src/features/transfer/workspace-export.ts';
import { ctx, freshDb } from '../../data/helpers.ts';
import { exportCtx, seededDb } from './export-fixture.ts';

const fixture = (name: string) =>
  readFileSync(join(import.meta.dirname, '../../domain/bookmarks/fixtures', `${name}.netscape`), 'utf8');

let db: LinkboardDb;
beforeEach(() => {
  db = freshDb();
});
afterEach(() => {
  cleanup();
  db.close();
});

function setup(c: MutationContext = ctx()) {
  const onClose = vi.fn();
  render(<ImportDialog db={db} ctx={c} onClose={onClose} />);
  return { user: userEvent.setup(), onClose, dialog: screen.getByRole('dialog', { name: 'Import bookmarks' }) };
}

async function pick(user: ReturnType<typeof userEvent.setup>, name: string, text: string, type = 'text/html') {
  await user.upload(screen.getByLabelText('Bookmarks file'), new File([text], name, { type }));
}

describe('ImportDialog', () => {
  it('Free: shows what was found and what fits, imports with a progress bar, ends with the summary', async () => {
    const { user } = setup();
    await pick(user, 'bookmarks.html', fixture('firefox'));
    expect(await screen.findByText(/^Found \d+ links? in \d+ folders?\.$/)).toBeInTheDocument();
    expect(screen.getByText('Your Free plan has room for 30 more links.')).toBeInTheDocument();
    expect(screen.getByText(/Your Free plan has one directory/)).toBeInTheDocument();
    expect(await db.outbox.count()).toBe(0);

    await user.click(screen.getByRole('button', { name: 'Import' }));
    const summary = await screen.findByText(/^Imported \d+ links?/);
    const progress = screen.getByRole('progressbar', { name: 'Import progress' });
    expect(progress.getAttribute('value')).toBe(progress.getAttribute('max'));
    const imported = Number(/Imported (\d+)/.exec(summary.textContent ?? '')?.[1]);
    expect(imported).toBeGreaterThan(0);
    expect(await db.saved_links.count()).toBe(imported);
    expect(await db.outbox.count()).toBe(imported + 1); // and the one directory
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
  });

  it('reports progress while a large file is imported', async () => {
    const html = exportNetscapeBookmarks([
      {
        name: 'Big',
        links: Array.from({ length: 600 }, (_, i) => ({
          url: `https://big${i}.example/`,
          title: `Big ${i}`,
          createdAt: null,
          tags: [],
        })),
      },
    ]);
    const { user, dialog } = setup(ctx({ tier: 'pro' }));
    await pick(user, 'big.htm', html);
    expect(await screen.findByText('Found 600 links in 1 folder.')).toBeInTheDocument();
    expect(screen.queryByText(/Free plan/)).not.toBeInTheDocument();
    // Every value the progress bar shows on the way (601 steps: 3 batches).
    const seen: string[] = [];
    const observer = new MutationObserver(() => {
      const bar = document.querySelector('progress');
      const value = bar ? `${bar.getAttribute('value')}/${bar.getAttribute('max')}` : null;
      if (value && seen.at(-1) !== value) seen.push(value);
    });
    observer.observe(document.body, { subtree: true, childList: true, attributes: true });
    await user.click(screen.getByRole('button', { name: 'Import' }));
    expect(await within(dialog).findByText('Imported 600 links, in 1 new directory.')).toBeInTheDocument();
    observer.disconnect();
    expect(seen).toEqual(['0/601', '250/601', '500/601', '601/601']);
    expect(await db.outbox.count()).toBe(601);
  });

  it('lists what was skipped, with a count per reason', async () => {
    await db.link_directories.put({
      id: 'd1',
      name: 'Imported bookmarks',
      description: null,
      color: 'blue',
      is_public: false,
      has_password: false,
      owner_id: ctx().userId,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    });
    const html = exportNetscapeBookmarks([
      {
        name: 'Imported bookmarks',
        links: [
          { url: 'https://a.example/', title: 'A', createdAt: null, tags: [] },
          { url: 'https://a.example/', title: 'A again', createdAt: null, tags: [] },
          { url: 'javascript:void(0)', title: 'Script', createdAt: null, tags: [] },
        ],
      },
    ]);
    const { user } = setup(ctx({ tier: 'pro' }));
    await pick(user, 'b.html', html);
    await user.click(await screen.findByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Imported 1 link.')).toBeInTheDocument();
    expect(screen.getByText('1: duplicate')).toBeInTheDocument();
    expect(screen.getByText('1: not http(s)')).toBeInTheDocument();
  });

  it("imports this app's JSON export", async () => {
    const exp = await buildWorkspaceExport(await seededDb(), exportCtx());
    const { user } = setup(ctx({ tier: 'pro' }));
    await pick(user, 'linkboard.json', JSON.stringify(exp), 'application/json');
    expect(await screen.findByText(/^Found 2 links in 2 folders and \d+ calendar items\.$/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByText(/^Imported 2 links and \d+ calendar items, in 2 new directories\.$/)).toBeVisible();
  });

  it('refuses a file that is not a bookmarks file, and writes nothing', async () => {
    const { user } = setup();
    await pick(user, 'page.html', '<html><body><p>Hello</p></body></html>');
    expect(await screen.findByRole('alert')).toHaveTextContent(NOT_BOOKMARKS);
    expect(screen.queryByRole('button', { name: 'Import' })).not.toBeInTheDocument();
    await pick(user, 'broken.json', '{"not": "an export"}', 'application/json');
    expect(await screen.findByRole('alert')).toHaveTextContent('This file is not a Linkboard export.');
    expect(await db.outbox.count()).toBe(0);
    expect(await db.saved_links.count()).toBe(0);
  });
});
