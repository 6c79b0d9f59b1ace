/**
 * The browser extension (extension/) and the Profile's bookmarklet save pages through the app's
 * share target (docs/product.md, Browser extension and bookmarklet). The extension is built for
 * this run's server and loaded unpacked into Chromium (new headless loads extensions). A click on
 * the toolbar button or on a context-menu item cannot be scripted: the journey calls the service
 * worker's handler with the tab and the click as Chrome passes them to its listeners.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type BrowserContext, type Page, type Worker } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import type { browser as ExtensionApi } from 'wxt/browser';
import { chromiumArgs, chromiumPath } from '../tests/support/chromium.ts';
import { LoginPage, newUser } from './pages/login-page.ts';
import { e2ePort } from './support/mail-stack.ts';
import { setTier } from './support/admin.ts';
import {
  controlledByServiceWorker,
  createDirectory,
  signInElsewhere,
  signUpAndSync,
  syncStatus,
} from './support/workspace.ts';

/** The extension API in the service worker, where the evaluated functions run. */
declare const chrome: typeof ExtensionApi;

const baseURL = `http://127.0.0.1:${e2ePort}`;
const extensionDir = join(import.meta.dirname, '..', 'extension', '.output', 'e2e', 'chrome-mv3');
const ONLY_WEB_PAGES = 'Only web pages (http or https) can be saved.';

/** A web page to save, served by the browser's router (no network): its title and a paragraph to select. */
const ARTICLE = 'https://news.example/articles/extension';
const POST = 'https://blog.example/posts/bookmarklet';
function servePage(context: BrowserContext, url: string, title: string, text: string) {
  return context.route(url, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>${title}</title><h1>${title}</h1><p id="quote">${text}</p><a id="out" href="https://other.example/linked">Elsewhere</a>`,
    }),
  );
}

async function selectQuote(page: Page) {
  await page.evaluate(() => getSelection()!.selectAllChildren(document.getElementById('quote')!));
}

test.beforeAll(() => {
  const built = spawnSync('npx', ['wxt', 'build', 'extension'], {
    env: { ...process.env, LINKBOARD_URL: baseURL, LINKBOARD_EXTENSION_OUT: '.output/e2e' },
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`the extension's build failed:\n${built.stdout}\n${built.stderr}`);
});

/** Chromium with the extension loaded, in a profile of its own; and the extension's service worker. */
async function launchWithExtension(): Promise<{ context: BrowserContext; worker: Worker; profile: string }> {
  const profile = mkdtempSync(join(tmpdir(), 'linkboard-extension-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    baseURL,
    args: [...chromiumArgs, `--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`],
  });
  const worker =
    context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://')) ??
    (await context.waitForEvent('serviceworker', { predicate: (w) => w.url().startsWith('chrome-extension://') }));
  return { context, worker, profile };
}

/** The Chrome tab id of `page` (the active tab once it is brought to the front). */
async function tabIdOf(page: Page, worker: Worker): Promise<number> {
  await page.bringToFront();
  return worker.evaluate(async () => {
    const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
    return tab!.id!;
  });
}

interface Click {
  menuItemId?: string;
  pageUrl?: string;
  linkUrl?: string;
  selectionText?: string;
}

/** What a toolbar click (no `click`) or a context-menu click on `page` does: the handler's plan. */
async function save(page: Page, worker: Worker, click?: Click) {
  const tab = { id: await tabIdOf(page, worker), url: page.url(), title: await page.title() };
  return worker.evaluate(
    ([tab, click]) =>
      (globalThis as unknown as { linkboardSave(t: unknown, c?: unknown): Promise<{ kind: string }> }).linkboardSave(
        tab,
        click ?? undefined,
      ),
    [tab, click ?? null] as const,
  );
}

test('the extension saves the current tab online and offline into the chosen directory, and another device sees both', async ({
  browser,
}) => {
  const { context, worker, profile } = await launchWithExtension();
  try {
    test.setTimeout(120_000);
    // Pro: two directories to choose from (Free owns one).
    const user = newUser('extension');
    const app = await context.newPage();
    await signUpAndSync(app, user);
    await setTier(baseURL, user, 'pro');
    await app.reload();
    await expect(syncStatus(app)).toHaveText('Synced');
    await createDirectory(app, user.username, 'Reading');
    const later = await createDirectory(app, user.username, 'Later');
    await expect(syncStatus(app)).toHaveText('Synced');

    // The options page shows the address the extension was built for, and refuses one with a path.
    const extensionId = new URL(worker.url()).host;
    const options = await context.newPage();
    await options.goto(`chrome-extension://${extensionId}/options.html`);
    const address = options.getByLabel('Linkboard address');
    await expect(address).toHaveValue(baseURL);
    await address.fill('ftp://links.example.com/app');
    await options.getByRole('button', { name: 'Save' }).click();
    await expect(options.getByRole('alert')).toHaveText(/^Enter the address of your Linkboard/);
    await address.fill(`${baseURL}/`);
    await options.getByRole('button', { name: 'Save' }).click();
    await expect(options.getByRole('status')).toHaveText('Saved.');
    await expect(options.getByRole('alert')).toHaveText('');
    await options.close();

    // Online: 'Save link to Linkboard' on a selection saves the page with the selection as Notes.
    await servePage(context, ARTICLE, 'An article worth keeping', 'A sentence to remember.');
    const article = await context.newPage();
    await article.goto(ARTICLE);
    await selectQuote(article);
    const opened = context.waitForEvent('page');
    const plan = await save(article, worker, {
      menuItemId: 'save-to-linkboard',
      pageUrl: ARTICLE,
      selectionText: 'A sentence to remember.',
    });
    expect(plan.kind).toBe('open');
    const popup = await opened;
    await expect(popup).toHaveURL(/\/share-target\?/);
    const dialog = popup.getByRole('dialog', { name: 'Add Link' });
    await expect(dialog.getByLabel('URL')).toHaveValue(ARTICLE);
    await expect(dialog.getByLabel('Title')).toHaveValue('An article worth keeping');
    await expect(dialog.getByLabel('Notes')).toHaveValue('A sentence to remember.');
    await dialog.getByLabel('Directory').selectOption({ label: 'Later' });
    await dialog.getByRole('button', { name: 'Add Link' }).click();
    await expect(popup).toHaveURL(new RegExp(`/Links/${user.username}/dir/${later}$`));
    await expect(popup.getByRole('link', { name: 'An article worth keeping' })).toBeVisible();
    await expect(syncStatus(popup)).toHaveText('Synced');
    await popup.close();

    // Offline: the share target opens from the service worker; the last directory is chosen already.
    await app.goto(`/Links/${user.username}`);
    await controlledByServiceWorker(app);
    await context.setOffline(true);
    await article.bringToFront();
    await article.evaluate(() => history.replaceState(null, '', '/articles/offline'));
    await article.evaluate(() => (document.title = 'Read on the train'));
    const openedOffline = context.waitForEvent('page');
    expect((await save(article, worker)).kind).toBe('open');
    const offline = await openedOffline;
    const offlineDialog = offline.getByRole('dialog', { name: 'Add Link' });
    await expect(offlineDialog.getByLabel('URL')).toHaveValue('https://news.example/articles/offline');
    await expect(offlineDialog.getByLabel('Title')).toHaveValue('Read on the train');
    await expect(offlineDialog.getByLabel('Directory')).toHaveValue(later);
    await offlineDialog.getByRole('button', { name: 'Add Link' }).click();
    await expect(offline).toHaveURL(new RegExp(`/Links/${user.username}/dir/${later}$`));
    await expect(offline.getByRole('link', { name: 'Read on the train' })).toBeVisible();
    await expect(syncStatus(offline)).toHaveText('Offline — 1 change waiting');
    await context.setOffline(false);
    await expect(syncStatus(offline)).toHaveText('Synced', { timeout: 20_000 });

    // Another device signed in as the same user sees both links in Later.
    const other = await signInElsewhere(browser, user);
    try {
      await other.page.goto(`/Links/${user.username}/dir/${later}`);
      await expect(other.page.getByRole('link', { name: 'An article worth keeping' })).toHaveAttribute('href', ARTICLE);
      await expect(other.page.getByRole('link', { name: 'Read on the train' })).toBeVisible({ timeout: 20_000 });
    } finally {
      await other.context.close();
    }
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

test('the extension refuses a file: or chrome:// page on its button and opens nothing; the menu on a link opens the share target for the link', async () => {
  const { context, worker, profile } = await launchWithExtension();
  const folder = mkdtempSync(join(tmpdir(), 'linkboard-file-'));
  try {
    const file = join(folder, 'notes.html');
    writeFileSync(file, '<!doctype html><title>Local notes</title><p>on disk</p>');
    // It asks for no site's data: no host permission, only the clicked tab (activeTab) and its own parts.
    const manifest = await worker.evaluate(() => chrome.runtime.getManifest());
    expect(manifest.manifest_version).toBe(3);
    expect([...(manifest.permissions ?? [])].sort()).toEqual(['activeTab', 'contextMenus', 'scripting', 'storage']);
    expect(manifest.host_permissions).toBeUndefined();
    expect(manifest.content_scripts).toBeUndefined();

    const page = await context.newPage();
    const windows = () => worker.evaluate(() => chrome.windows.getAll().then((all) => all.length));
    const before = await windows();
    for (const url of [`file://${file}`, 'chrome://version/']) {
      await page.goto(url);
      const tabId = await tabIdOf(page, worker);
      expect(await save(page, worker), url).toEqual({ kind: 'refuse', message: ONLY_WEB_PAGES });
      expect(await worker.evaluate((tabId) => chrome.action.getBadgeText({ tabId }), tabId)).toBe('!');
      expect(await worker.evaluate((tabId) => chrome.action.getTitle({ tabId }), tabId)).toBe(ONLY_WEB_PAGES);
    }
    expect(await windows()).toBe(before);

    // The menu on a link saves the link, not the page (the share target asks for sign-in first).
    await servePage(context, ARTICLE, 'An article', 'Text');
    await page.goto(ARTICLE);
    const opened = context.waitForEvent('page');
    await save(page, worker, {
      menuItemId: 'save-to-linkboard',
      pageUrl: ARTICLE,
      linkUrl: 'https://other.example/linked',
    });
    const popup = await opened;
    await expect(popup).toHaveURL(/\/Login\?next=/);
    const next = new URL(new URL(popup.url()).searchParams.get('next')!, baseURL);
    expect(next.pathname).toBe('/share-target');
    expect(next.searchParams.get('url')).toBe('https://other.example/linked');
    expect(next.searchParams.has('title')).toBe(false);
    // A web page's save clears the refusal's badge.
    expect(await worker.evaluate((tabId) => chrome.action.getBadgeText({ tabId }), await tabIdOf(page, worker))).toBe(
      '',
    );
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
    rmSync(folder, { recursive: true, force: true });
  }
});

test("the Profile's bookmarklet saves the page it runs on, and refuses a file: page", async ({ page, context }) => {
  const user = newUser('bookmarklet');
  const login = new LoginPage(page);
  await login.open();
  await login.signUp(user);
  await expect(page).toHaveURL(new RegExp(`/Dashboard/${user.username}$`));
  const directory = await createDirectory(page, user.username, 'Bookmarked');
  await page.goto(`/Profile/${user.username}`);
  const link = page.getByRole('link', { name: 'Save to Linkboard' });
  await expect(link).toHaveAttribute('href', /^javascript:/);
  const href = (await link.getAttribute('href'))!;
  const axe = await new AxeBuilder({ page })
    .include('section[aria-labelledby="save-to-linkboard"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(axe.violations).toEqual([]);

  // Run as a bookmark runs: the page navigates to the javascript: address.
  await servePage(context, POST, 'A post to keep', 'The selected part.');
  await page.goto(POST);
  await selectQuote(page);
  const opened = context.waitForEvent('page');
  await page.evaluate((href) => {
    location.href = href;
  }, href);
  const popup = await opened;
  const dialog = popup.getByRole('dialog', { name: 'Add Link' });
  await expect(dialog.getByLabel('URL')).toHaveValue(POST);
  await expect(dialog.getByLabel('Title')).toHaveValue('A post to keep');
  await expect(dialog.getByLabel('Notes')).toHaveValue('The selected part.');
  await dialog.getByRole('button', { name: 'Add Link' }).click();
  await expect(popup).toHaveURL(new RegExp(`/Links/${user.username}/dir/${directory}$`));
  await expect(popup.getByRole('link', { name: 'A post to keep' })).toHaveAttribute('href', POST);
  await expect(syncStatus(popup)).toHaveText('Synced');
  await popup.close();

  // A file: page: the share target says why and offers nothing to save.
  const folder = mkdtempSync(join(tmpdir(), 'linkboard-file-'));
  try {
    const file = join(folder, 'local.html');
    writeFileSync(file, '<!doctype html><title>Local</title><p>on disk</p>');
    await page.goto(`file://${file}`);
    const refused = context.waitForEvent('page');
    await page.evaluate((href) => {
      location.href = href;
    }, href);
    const refusal = await refused;
    await expect(refusal.getByRole('alert')).toHaveText(ONLY_WEB_PAGES);
    await expect(refusal.getByRole('dialog', { name: 'Add Link' })).toHaveCount(0);
    await refusal.goto(`/Links/${user.username}/dir/${directory}`);
    await expect(refusal.getByRole('link', { name: 'A post to keep' })).toBeVisible();
    await expect(refusal.getByRole('link')).not.toContainText(['Local']);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
