/**
 * Import and export in a real browser: a bookmarks file imported offline (progress bar and summary), the
 * links on a second device once online; the calendar downloaded as .ics and parsed.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import ICAL from 'ical.js';
import { newUser } from './pages/login-page.ts';
import { pushAs, setTier } from './support/admin.ts';
import { controlledByServiceWorker, signInElsewhere, signUpAndSync, syncStatus } from './support/workspace.ts';

/** A Chrome-shaped bookmarks file: 150 links in 'Work / Clients', 50 in 'Reading', one javascript: bookmark. */
function bookmarksFile(): string {
  const link = (i: number, folder: string) =>
    `<DT><A HREF="https://example.com/${folder}/${i}" ADD_DATE="1700000000">${folder} page ${i}</A>`;
  const clients = Array.from({ length: 150 }, (_, i) => link(i, 'clients')).join('\n');
  const reading = Array.from({ length: 50 }, (_, i) => link(i, 'reading')).join('\n');
  return `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<TITLE>Bookmarks</TITLE>
<H1>Bookmarks</H1>
<DL><p>
<DT><H3 ADD_DATE="1700000000">Work</H3>
<DL><p>
<DT><H3>Clients</H3>
<DL><p>
${clients}
</DL><p>
</DL><p>
<DT><H3>Reading</H3>
<DL><p>
${reading}
<DT><A HREF="javascript:alert(1)">Bookmarklet</A>
</DL><p>
</DL><p>
`;
}

/** A bookmark file's bytes as the tool wrote them (tests/domain/bookmarks/fixtures). */
const fixture = (name: string) =>
  readFileSync(join(import.meta.dirname, '../tests/domain/bookmarks/fixtures', `${name}.netscape`));

async function openImport(page: Page, buffer: Buffer = Buffer.from(bookmarksFile()), name = 'bookmarks.html') {
  await page.getByRole('button', { name: 'Import bookmarks' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import bookmarks' });
  await dialog.getByLabel('Bookmarks file').setInputFiles({ name, mimeType: 'text/html', buffer });
  return dialog;
}

test('imports a bookmarks file offline, with progress and a summary; another device sees the links once online', async ({
  page,
  context,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const user = newUser('importer');
  await signUpAndSync(page, user);
  await setTier(request, user, 'pro');
  await controlledByServiceWorker(page);
  // The plan reaches the device with a pull: the Profile screen says Pro before going offline.
  await page.goto(`/Profile/${user.username}`);
  await expect(page.getByRole('region', { name: 'Subscription' }).getByText('Pro Plan')).toBeVisible({
    timeout: 40_000,
  });

  await context.setOffline(true);
  await page.reload();
  await expect(syncStatus(page)).toHaveText(/^Offline/);
  const dialog = await openImport(page);
  await expect(dialog.getByText('Found 201 links in 2 folders.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(dialog.getByRole('progressbar', { name: 'Import progress' })).toBeVisible();
  const summary = dialog.getByRole('status');
  await expect(summary).toContainText('Imported 200 links, in 2 new directories.');
  await expect(summary).toContainText('not http(s)');
  await expect(dialog.getByRole('progressbar', { name: 'Import progress' })).toHaveAttribute('value', /\d+/);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(syncStatus(page)).toHaveText(/^Offline — \d+ changes waiting/);

  await context.setOffline(false);
  await page.reload();
  await expect(syncStatus(page)).toHaveText('Synced', { timeout: 30_000 });

  const other = await signInElsewhere(browser, user);
  await other.page.goto(`/Links/${user.username}`);
  await other.page.getByRole('button', { name: 'Open Work / Clients' }).click();
  await expect(other.page.getByText('150 links')).toBeVisible({ timeout: 20_000 });
  await expect(other.page.getByText(/^clients page \d+$/).first()).toBeVisible();
  await other.context.close();

  // The same file again: every link is a duplicate now, nothing is added.
  const again = await openImport(page);
  await expect(again.getByText(/0 links will be imported/)).toBeVisible();
  await expect(again.getByText(/200 duplicate/)).toBeVisible();
});

test('downloads the calendar as an .ics file that parses back', async ({ page, request }) => {
  const user = newUser('icsuser');
  await signUpAndSync(page, user);
  await pushAs(request, user, [
    {
      name: 'event.create',
      args: {
        id: crypto.randomUUID(),
        title: 'Dentist, then lunch',
        description: 'Bring the form',
        starts_at: '2026-12-03T09:30:00.000Z',
        ends_at: '2026-12-03T10:15:00.000Z',
        is_task: false,
      },
    },
  ]);
  await page.goto(`/Profile/${user.username}`);
  await page.reload(); // pull the event
  await expect(syncStatus(page)).toHaveText('Synced');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export calendar (.ics)' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^linkboard-calendar-\d{4}-\d{2}-\d{2}\.ics$/);
  const calendar = new ICAL.Component(ICAL.parse(readFileSync((await download.path()) as string, 'utf8')));
  const [event] = calendar.getAllSubcomponents('vevent');
  expect(event?.getFirstPropertyValue('summary')).toBe('Dentist, then lunch');
  expect((event?.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString()).toBe(
    '2026-12-03T09:30:00.000Z',
  );
  await expect(page.getByText('Exported 1 event and task.').or(page.getByText(/Exported 1 event/))).toBeVisible();
});

test('reads bookmark files in the charset they declare: windows-1252 by its <meta>, UTF-16 by its BOM', async ({
  page,
}) => {
  const user = newUser('charsets');
  await signUpAndSync(page, user);
  await page.goto(`/Profile/${user.username}`);

  // Internet Explorer's export: 'Café' is the one byte 0xE9, '€' is 0x80, '–' is 0x96.
  const ie = fixture('ie8-windows-1252');
  expect(ie.includes(0xe9) && ie.includes(0x80)).toBe(true);
  let dialog = await openImport(page, ie, 'bookmark.htm');
  await expect(dialog.getByText('Found 4 links in 2 folders.')).toBeVisible();
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(dialog.getByRole('status')).toContainText('Imported 3 links, in 1 new directory.');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // A Chrome file saved again as UTF-16LE with a BOM, whose <meta> still says UTF-8.
  dialog = await openImport(page, fixture('chrome-utf-16le-bom'));
  await expect(dialog.getByText('Found 1 link in 1 folder.')).toBeVisible();
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(dialog.getByRole('status')).toContainText('Imported 1 link.');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // Bytes that are not UTF-8 in a file that says nothing: read, with a warning.
  dialog = await openImport(
    page,
    Buffer.from(
      '<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p><DT><A HREF="https://x.example/">Caf\xe9</A></DL>',
      'latin1',
    ),
  );
  await expect(dialog.getByRole('alert')).toHaveText(
    'Some characters in this file could not be read: they show as \u{fffd}.',
  );
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await page.goto(`/Links/${user.username}`);
  await page.getByRole('button', { name: 'Open Imported bookmarks' }).click();
  await expect(page.getByText('Café Müller – Menü €5')).toBeVisible();
  await expect(page.getByText('PHP: Handbuch – Straße & Größe')).toBeVisible();
  await expect(page.getByText('Café 😀 日本')).toBeVisible();
});

test('Free at the limit: the import dialog leads to the upgrade, not to a dead Import button', async ({
  page,
  request,
}) => {
  const user = newUser('importfull');
  await signUpAndSync(page, user);
  const dirId = randomUUID();
  await pushAs(request, user, [
    { name: 'directory.create', args: { id: dirId, name: 'Full' } },
    ...Array.from({ length: 30 }, (_, i) => ({
      name: 'link.create',
      args: { id: randomUUID(), directory_id: dirId, url: `https://full${i}.example/`, title: `Full ${i}` },
    })),
  ]);
  // The device has pulled the 30 links (the import counts what the device holds).
  await page.goto(`/Links/${user.username}`);
  await expect(page.getByRole('button', { name: 'Open Full' }).getByText('30 links', { exact: true })).toBeVisible({
    timeout: 20_000,
  });
  await page.goto(`/Profile/${user.username}`);

  const dialog = await openImport(page);
  await expect(dialog.getByText('Your Free plan has room for 0 more links.')).toBeVisible();
  await expect(dialog.getByText('Upgrade to Pro to save more links.')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Import', exact: true })).toHaveCount(0);
  await dialog.getByRole('link', { name: 'Upgrade to Pro' }).click();
  // /Upgrade, which the app scopes to the user's own /Upgrade/{username}.
  await expect(page).toHaveURL(new RegExp(`/Upgrade/${user.username}$`));
  await expect(page.getByRole('dialog', { name: 'Import bookmarks' })).toHaveCount(0);
});
