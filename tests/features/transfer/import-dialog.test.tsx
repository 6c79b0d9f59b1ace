// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LinkboardDb } from '../../../src/data/db.ts';
import type { MutationContext } from '../../../src/data/mutation-context.ts';
import { UNREADABLE_CHARACTERS } from '../../../src/domain/bookmarks/decode-import.ts';
import { exportNetscapeBookmarks } from '../../../src/domain/bookmarks/netscape-export.ts';
import { formatNumber } from '../../../src/domain/number-format.ts';
import { PASSWORD_NOTE } from '../../../src/features/transfer/import-plan.ts';
import { previewAsks } from '../../../src/data/preview-asks.ts';
import { ImportDialog } from '../../../src/features/transfer/import-dialog.tsx';
import { NOT_BOOKMARKS } from '../../../src/features/transfer/read-import-file.ts';
import { buildWorkspaceExport } from '../../../src/features/transfer/workspace-export.ts';
import { ctx, freshDb } from '../../data/helpers.ts';
import { makeDirectory, makeLink } from '../../support/builders.ts';
import { exportCtx, seededDb } from './export-fixture.ts';

const fixturePath = (name: string) => join(import.meta.dirname, '../../domain/bookmarks/fixtures', `${name}.netscape`);
const fixture = (name: string) => readFileSync(fixturePath(name), 'utf8');
/** A fixture's bytes as the tool wrote them (windows-1252, UTF-16 with a BOM, ...). */
const fixtureBytes = (name: string) => new Uint8Array(readFileSync(fixturePath(name)));

/** A bookmark file of one folder holding `count` links. */
const oneFolder = (name: string, count: number) =>
  exportNetscapeBookmarks([
    {
      name,
      links: Array.from({ length: count }, (_, i) => ({
        url: `https://${name.toLowerCase()}${i}.example/`,
        title: `${name} ${i}`,
        createdAt: null,
        tags: [],
      })),
    },
  ]);

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
  render(
    <MemoryRouter initialEntries={['/Profile/me']}>
      <Routes>
        <Route path="/Profile/me" element={<ImportDialog db={db} ctx={c} onClose={onClose} />} />
        <Route path="/Upgrade" element={<h1>Upgrade page</h1>} />
      </Routes>
    </MemoryRouter>,
  );
  return { user: userEvent.setup(), onClose, dialog: screen.getByRole('dialog', { name: 'Import bookmarks' }) };
}

async function pick(
  user: ReturnType<typeof userEvent.setup>,
  name: string,
  content: string | Uint8Array<ArrayBuffer>,
  type = 'text/html',
) {
  await user.upload(screen.getByLabelText('Bookmarks file'), new File([content], name, { type }));
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

  it('asks for the imported links’ previews only when Fetch previews is ticked', async () => {
    const first = setup(ctx({ tier: 'pro' }));
    await pick(first.user, 'reading.html', oneFolder('Reading', 3));
    const box = await screen.findByRole('checkbox', { name: /Fetch previews/ });
    expect(box).not.toBeChecked();
    await first.user.click(screen.getByRole('button', { name: 'Import' }));
    await screen.findByText(/^Imported 3 links/);
    expect(await previewAsks(db)).toEqual([]);
    cleanup();

    const second = setup(ctx({ tier: 'pro' }));
    await pick(second.user, 'work.html', oneFolder('Work', 2));
    await second.user.click(await screen.findByRole('checkbox', { name: /Fetch previews/ }));
    await second.user.click(screen.getByRole('button', { name: 'Import' }));
    await screen.findByText(/^Imported 2 links/);
    const work = await db.saved_links.filter((link) => link.title.startsWith('Work')).toArray();
    await vi.waitFor(async () =>
      expect((await previewAsks(db)).map((ask) => ask.id).sort()).toEqual(work.map((link) => link.id).sort()),
    );
  });

  it('reports progress while a large file is imported', async () => {
    const html = oneFolder('Big', 600);
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

  it("Free at the limit: no dead Import button, the plan's sentence and the way to the upgrade", async () => {
    const dir = makeDirectory({ owner_id: ctx().userId });
    await db.link_directories.put(dir);
    await db.saved_links.bulkPut(Array.from({ length: 30 }, () => makeLink({ directory_id: dir.id })));
    const { user, onClose } = setup();
    await pick(user, 'bookmarks.html', fixture('chrome'));
    expect(await screen.findByText('Your Free plan has room for 0 more links.')).toBeInTheDocument();
    expect(screen.getByText('Upgrade to Pro to save more links.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Import' })).not.toBeInTheDocument();
    const upgrade = screen.getByRole('link', { name: 'Upgrade to Pro' });
    expect(upgrade).toHaveAttribute('href', '/Upgrade');
    await user.click(upgrade);
    expect(await screen.findByRole('heading', { name: 'Upgrade page' })).toBeInTheDocument();
    expect(onClose).toHaveBeenCalled();
    expect(await db.outbox.count()).toBe(0);
  });

  it('Free with room left: Import takes what fits, and the upgrade is offered for the rest', async () => {
    const html = oneFolder('Many', 1000);
    const { user } = setup();
    await pick(user, 'many.html', html);
    // Every number in the same format: the device's locale, grouped ('1,000' in English).
    expect(await screen.findByText(`Found ${formatNumber(1000)} links in 1 folder.`)).toBeInTheDocument();
    expect(
      screen.getByText(`30 links will be imported (skipped: ${formatNumber(970)} over the plan's limit).`),
    ).toBeInTheDocument();
    expect(screen.getByText('Upgrade to Pro to save more links.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Import' })).toBeEnabled();
  });

  it("reads an Internet Explorer file in the windows-1252 its <meta> declares: 'Café', no warning", async () => {
    const { user } = setup(ctx({ tier: 'pro' }));
    await pick(user, 'bookmark.htm', fixtureBytes('ie8-windows-1252'));
    expect(await screen.findByText('Found 4 links in 2 folders.')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    // The one nested folder keeps its parent in its name, and the preview says so.
    expect(screen.getByText('Nested folders become directories named like "Entwicklung / PHP".')).toBeInTheDocument();
    expect(screen.getByText(/\(skipped: 1 not http\(s\)\)/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Import' }));
    await screen.findByText('Imported 3 links, in 2 new directories.');
    const titles = (await db.saved_links.toArray()).map((l) => l.title);
    expect(titles.find((t) => t.startsWith('Caf'))).toMatch(/^Café Müller /);
    expect((await db.link_directories.toArray()).map((d) => d.name).sort()).toEqual([
      'Entwicklung / PHP',
      'Favorites Bar',
    ]);
  });

  it('reads a UTF-16LE file by its BOM, and warns when some bytes cannot be read', async () => {
    const { user } = setup(ctx({ tier: 'pro' }));
    await pick(user, 'bookmarks.html', fixtureBytes('chrome-utf-16le-bom'));
    expect(await screen.findByText('Found 1 link in 1 folder.')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));

    cleanup();
    const next = setup(ctx({ tier: 'pro' }));
    const broken = Buffer.from(
      '<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p><DT><A HREF="https://a.example/">Caf\xe9</A></DL>',
      'latin1',
    );
    await pick(next.user, 'bookmarks.html', new Uint8Array(broken));
    expect(await screen.findByRole('alert')).toHaveTextContent(UNREADABLE_CHARACTERS);
    expect(screen.getByText('Found 1 link in 1 folder.')).toBeInTheDocument();
  });

  it('says an https URL over 2,048 characters is too long, and a file: URL is not http(s)', async () => {
    const html = exportNetscapeBookmarks([
      {
        name: 'Odd',
        links: [
          { url: `https://a.example/${'x'.repeat(2100)}`, title: 'Long', createdAt: null, tags: [] },
          { url: 'file:///C:/notes.html', title: 'File', createdAt: null, tags: [] },
          { url: 'https://ok.example/', title: 'OK', createdAt: null, tags: [] },
        ],
      },
    ]);
    const { user } = setup(ctx({ tier: 'pro' }));
    await pick(user, 'odd.html', html);
    expect(
      await screen.findByText(
        `1 link will be imported (skipped: 1 not http(s), 1 URL longer than ${formatNumber(2048)} characters).`,
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByText(`1: URL longer than ${formatNumber(2048)} characters`)).toBeInTheDocument();
  });

  it("keeps a Linkboard export's public directories public; a password-protected one comes back private", async () => {
    const exp = await buildWorkspaceExport(await seededDb(), exportCtx());
    const [first, second] = exp.directories;
    if (!first || !second) throw new Error('the fixture has two own directories');
    first.is_public = true;
    second.is_public = true;
    second.has_password = true;
    const { user } = setup(ctx({ tier: 'pro' }));
    await pick(user, 'linkboard.json', JSON.stringify(exp), 'application/json');
    expect(await screen.findByText(PASSWORD_NOTE)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Import' }));
    await screen.findByText(/^Imported 2 links/);
    const dirs = await db.link_directories.toArray();
    expect(dirs.find((d) => d.name === first.name)).toMatchObject({ is_public: true, has_password: false });
    expect(dirs.find((d) => d.name === second.name)).toMatchObject({ is_public: false, has_password: false });
  });
});
