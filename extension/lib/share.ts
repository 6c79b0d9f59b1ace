/**
 * The extension's rules, pure so they are tested alone (tests/extension/share.test.ts): which
 * pages can be saved, what a save sends, and the Linkboard address the options page accepts.
 * A save opens the app's own /share-target screen, which holds the session, the plan's limits,
 * the offline queue and the previews (docs/product.md, Browser extension and bookmarklet).
 */

/** Said when the page or link is not a web page's (docs/product.md, Browser extension and bookmarklet). */
export const ONLY_WEB_PAGES = 'Only web pages (http or https) can be saved.';
/** The options page's words for an address it does not accept. */
export const BAD_ADDRESS =
  'Enter the address of your Linkboard, such as https://linkboard.example.com (http or https, no path).';
/** The action's and the context menu's names. */
export const SAVE_PAGE = 'Save to Linkboard';
export const SAVE_LINK = 'Save link to Linkboard';

/** The Add Link fields' limits (docs/product.md, Validation): the share target cuts to them as well. */
const TITLE_MAX = 500;
const NOTES_MAX = 10_000;

/** What is saved: a page's or a link's address, its title, and the selected text as the notes. */
export interface SaveRequest {
  url: string;
  title: string;
  note: string;
}

/** The tab a save starts from, as the browser describes it (tabs.Tab, in part). */
export interface TabInfo {
  url?: string | undefined;
  title?: string | undefined;
}

/** A context-menu click, as the browser describes it (contextMenus.OnClickData, in part). */
export interface ClickInfo {
  pageUrl?: string | undefined;
  linkUrl?: string | undefined;
  selectionText?: string | undefined;
}

/** What a save does: open the share target at `url`, or refuse with `message` and open nothing. */
export type SavePlan = { kind: 'open'; url: string } | { kind: 'refuse'; message: string };

/** Whether `url` is a web page's (http or https), the only pages Linkboard saves. */
export function isWebPage(url: string | undefined): url is string {
  if (!url) return false;
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * The Linkboard origin in what the user typed ('https://app.example.com', with or without a
 * trailing slash), or null: it must be http(s), without a path, query, fragment or credentials.
 */
export function linkboardOrigin(input: string): string | null {
  const text = input.trim();
  if (!/^https?:\/\//i.test(text)) return null;
  try {
    const url = new URL(text);
    const bare = url.pathname === '/' && url.search === '' && url.hash === '' && !text.endsWith('#');
    return bare && url.username === '' && url.password === '' && isWebPage(url.href) ? url.origin : null;
  } catch {
    return null;
  }
}

/** `value` cut to at most `max` UTF-16 units without halving an emoji (a surrogate pair). */
function cut(value: string, max: number): string {
  if (value.length <= max) return value;
  const last = value.charCodeAt(max - 1);
  return value.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/**
 * What a click saves. The context menu on a link saves the link (its title is left to the share
 * target: the page's host until the preview reads it); otherwise the tab's page with its title.
 * The selected text, if any, is the note.
 */
export function whatToSave(tab: TabInfo | undefined, click?: ClickInfo): SaveRequest {
  const note = (click?.selectionText ?? '').trim();
  if (click?.linkUrl) return { url: click.linkUrl, title: '', note };
  return { url: tab?.url ?? click?.pageUrl ?? '', title: (tab?.title ?? '').trim(), note };
}

/** The share target's address for a save: `{origin}/share-target?url=…&title=…&note=…`. */
export function shareUrl(origin: string, save: SaveRequest): string {
  const params = new URLSearchParams({ url: save.url });
  const title = cut(save.title.trim(), TITLE_MAX);
  const note = cut(save.note.trim(), NOTES_MAX);
  if (title) params.set('title', title);
  if (note) params.set('note', note);
  return `${origin}/share-target?${params}`;
}

/** A save's plan: a web page opens the share target; anything else is refused with the message. */
export function planSave(origin: string, save: SaveRequest): SavePlan {
  return isWebPage(save.url)
    ? { kind: 'open', url: shareUrl(origin, save) }
    : { kind: 'refuse', message: ONLY_WEB_PAGES };
}
