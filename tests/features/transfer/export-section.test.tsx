// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LinkboardDb } from '../../../src/data/db.ts';
import { EXPORT_FAILED, ExportSection } from '../../../src/features/transfer/export-section.tsx';
import { parseWorkspaceExport } from '../../../src/features/transfer/workspace-export.ts';
import * as f from './export-fixture.ts';

interface Download {
  name: string;
  href: string;
  blob: Blob;
}

let db: LinkboardDb;
let downloads: Download[];
const blobs = new Map<string, Blob>();

/** Records each `<a download>` click (and keeps jsdom from trying to navigate to it). */
function recordDownload(event: MouseEvent) {
  const target = event.target;
  if (!(target instanceof HTMLAnchorElement) || !target.download) return;
  event.preventDefault();
  const blob = blobs.get(target.href);
  if (blob) downloads.push({ name: target.download, href: target.href, blob });
}

beforeEach(async () => {
  db = await f.seededDb();
  downloads = [];
  blobs.clear();
  let n = 0;
  URL.createObjectURL = vi.fn((blob: Blob) => {
    const url = `blob:test/${++n}`;
    blobs.set(url, blob);
    return url;
  });
  document.addEventListener('click', recordDownload, true);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  document.removeEventListener('click', recordDownload, true);
  db.close();
});

const setup = () => {
  render(<ExportSection db={db} ctx={f.exportCtx()} />);
  return userEvent.setup();
};

describe('ExportSection', () => {
  it('says exports are made on this device and work offline', () => {
    setup();
    expect(screen.getByText(/made on this device/)).toHaveTextContent(/work offline/);
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });

  it('downloads everything as JSON that the importer reads back', async () => {
    const revoke = vi.spyOn(URL, 'revokeObjectURL');
    const user = setup();
    await user.click(screen.getByRole('button', { name: 'Export everything (JSON)' }));
    const status = await screen.findByText('Exported 3 links in 4 directories, 7 events and tasks, and 1 poll.');
    expect(status).toHaveAttribute('role', 'status');
    expect(downloads.map((d) => [d.name, d.blob.type])).toEqual([
      ['linkboard-2026-03-15.json', 'application/json;charset=utf-8'],
    ]);
    const parsed = parseWorkspaceExport(await downloads[0]!.blob.text());
    expect(parsed.ok && parsed.value.directories.map((dir) => dir.name)).toEqual(['Reading & <Research>', 'Empty']);
    expect(document.querySelector('a[download]')).toBeNull();
    await waitFor(() => expect(revoke).toHaveBeenCalledWith(downloads[0]?.href));
  });

  it('downloads the bookmarks as HTML', async () => {
    const user = setup();
    await user.click(screen.getByRole('button', { name: 'Export bookmarks (HTML)' }));
    expect(await screen.findByText('Exported 3 links in 4 directories.')).toHaveAttribute('role', 'status');
    expect(downloads.map((d) => [d.name, d.blob.type])).toEqual([
      ['linkboard-bookmarks-2026-03-15.html', 'text/html;charset=utf-8'],
    ]);
    expect(await downloads[0]!.blob.text()).toContain('<H3>Shared / Team</H3>');
  });

  it('downloads the calendar as .ics', async () => {
    const user = setup();
    await user.click(screen.getByRole('button', { name: 'Export calendar (.ics)' }));
    expect(await screen.findByText('Exported 6 events and tasks.')).toHaveAttribute('role', 'status');
    expect(downloads.map((d) => [d.name, d.blob.type])).toEqual([
      ['linkboard-calendar-2026-03-15.ics', 'text/calendar;charset=utf-8'],
    ]);
    expect(await downloads[0]!.blob.text()).toMatch(/^BEGIN:VCALENDAR\r\n/);
  });

  it('says so when an export fails', async () => {
    const user = setup();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    db.close();
    await user.click(screen.getByRole('button', { name: 'Export bookmarks (HTML)' }));
    expect(await screen.findByText(EXPORT_FAILED)).toHaveAttribute('role', 'status');
    expect(downloads).toEqual([]);
    expect(screen.getByRole('button', { name: 'Export bookmarks (HTML)' })).toBeEnabled();
  });
});
