/**
 * The toolbar button and the context menu: each save opens the app's /share-target screen in a
 * small window, where the signed-in user picks the directory and saves (docs/product.md, Browser
 * extension and bookmarklet). The extension keeps no password or token of its own.
 */
import { browser, type Browser } from 'wxt/browser';
import { defineBackground } from 'wxt/utils/define-background';
import { readAddress } from '../lib/address.ts';
import { SAVE_LINK, SAVE_PAGE, planSave, whatToSave, type ClickInfo, type TabInfo } from '../lib/share.ts';

const MENU_ID = 'save-to-linkboard';

/** The text selected in the tab, read on a toolbar click (activeTab lets it); '' when the page forbids it. */
async function selectionIn(tabId: number | undefined): Promise<string> {
  if (tabId === undefined) return '';
  try {
    const [result] = await browser.scripting.executeScript({
      target: { tabId },
      func: () => getSelection()?.toString() ?? '',
    });
    return typeof result?.result === 'string' ? result.result : '';
  } catch {
    return '';
  }
}

/** A refusal where the user sees it: the button's badge and its title (its tooltip) on that tab. */
async function refuse(tabId: number | undefined, message: string): Promise<void> {
  if (tabId === undefined) return;
  await browser.action.setBadgeBackgroundColor({ tabId, color: '#b91c1c' });
  await browser.action.setBadgeText({ tabId, text: '!' });
  await browser.action.setTitle({ tabId, title: message });
}

/** Saves the tab's page, or the clicked link; the selection is the note. Returns what it did. */
async function save(tab: (TabInfo & { id?: number | undefined }) | undefined, click?: ClickInfo) {
  const request = whatToSave(tab, click);
  if (!click && request.note === '') request.note = (await selectionIn(tab?.id)).trim();
  const plan = planSave(await readAddress(), request);
  if (plan.kind === 'refuse') {
    await refuse(tab?.id, plan.message);
    return plan;
  }
  // A save clears an earlier refusal's badge on this tab.
  if (tab?.id !== undefined) {
    await browser.action.setBadgeText({ tabId: tab.id, text: '' });
    await browser.action.setTitle({ tabId: tab.id, title: SAVE_PAGE });
  }
  await browser.windows.create({ url: plan.url, type: 'popup', width: 560, height: 760, focused: true });
  return plan;
}

export default defineBackground(() => {
  browser.runtime.onInstalled.addListener(() => {
    browser.contextMenus.create({ id: MENU_ID, title: SAVE_LINK, contexts: ['page', 'link', 'selection'] });
  });
  browser.action.onClicked.addListener((tab: Browser.tabs.Tab) => void save(tab));
  browser.contextMenus.onClicked.addListener((info: Browser.contextMenus.OnClickData, tab?: Browser.tabs.Tab) => {
    if (info.menuItemId === MENU_ID) void save(tab, info);
  });
  // The e2e journey (e2e/extension.spec.ts) calls the handlers as the listeners do: a real click on
  // the toolbar or a context menu cannot be scripted. Only this service worker's scope sees it.
  Object.assign(globalThis, { linkboardSave: save });
});
