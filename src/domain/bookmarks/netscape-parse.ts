/**
 * Reads a Netscape Bookmark File (the HTML every browser exports) into flat, named folders of links.
 *
 * Format decisions:
 * - The HTML is parsed by the caller's DOMParser, never by regular expressions. Browsers omit `</DT>` and
 *   `</p>`, so a folder's `<DL>` ends up inside its `<DT>`, beside it, or inside a `<DD>` holding the folder's
 *   description. The walk therefore goes through the elements in document order: an `<H3>` names a folder and
 *   the next `<DL>` holds its contents; an `<A>` is a link of the folder whose `<DL>` encloses it.
 * - Nested folders are flattened to one readable name joined with ' / ' ('Work / Clients'), marked `nested`
 *   so the import can say so (Linkboard's directories do not nest). Browser root
 *   folders ('Bookmarks bar', 'Bookmarks Toolbar', 'Favorites', ...) keep their names. Links outside any folder
 *   go to IMPORTED_FOLDER_NAME, or to the `<H1>` when it names a browser root (Firefox puts the menu's own
 *   bookmarks there under 'Bookmarks Menu').
 * - A folder that only holds other folders is not listed (its name lives on in theirs); a truly empty folder
 *   is. Folders whose flattened names are equal are merged into the first one.
 * - Only http and https URLs the server can keep are taken, as written (trimmed); anything else is reported
 *   in `skipped` with the true reason (url-problem.ts: empty, not http(s), too long, invalid).
 * - ADD_DATE is seconds since the epoch; larger numbers are read as milliseconds or microseconds (some tools
 *   write those), always kept to the whole second. A zero, missing or unreadable date is null.
 * - Titles and folder names have HTML whitespace collapsed and trimmed; a missing title becomes the URL.
 * - TAGS is a comma-separated list; a following `<DD>` is the description (trimmed, line breaks kept).
 */

import { urlProblem, type UrlProblem } from './url-problem.ts';

export const IMPORTED_FOLDER_NAME = 'Imported bookmarks';
export const UNTITLED_FOLDER_NAME = 'Untitled folder';
export const FOLDER_SEPARATOR = ' / ';

/** Root folder names browsers write; an `<H1>` with one of these names the top-level links' folder. */
export const BROWSER_ROOT_FOLDERS: readonly string[] = [
  'Bookmarks bar',
  'Bookmarks Toolbar',
  'Bookmarks Menu',
  'Other bookmarks',
  'Mobile bookmarks',
  'Favorites',
  'BookmarksBar',
  'BookmarksMenu',
];

export interface ParsedLink {
  url: string;
  title: string;
  /** ISO 8601 (UTC), or null when the file gives no usable ADD_DATE. */
  createdAt: string | null;
  tags: string[];
  description: string | null;
}

export interface ParsedFolder {
  name: string;
  links: ParsedLink[];
  /** True when the folder sat inside another one (its name joins theirs); absent otherwise. */
  nested?: boolean;
}

export interface SkippedBookmark {
  title: string;
  url: string;
  reason: UrlProblem;
}

export interface ParsedBookmarks {
  folders: ParsedFolder[];
  skipped: SkippedBookmark[];
}

interface FolderEntry extends ParsedFolder {
  hasSubfolders: boolean;
  isRoot: boolean;
}

interface WalkState {
  folders: Map<string, FolderEntry>;
  skipped: SkippedBookmark[];
  rootName: string;
  /** The folder named by the last `<H3>`, waiting for its `<DL>`. */
  pending: string[] | null;
  /** The link a following `<DD>` describes. */
  lastLink: ParsedLink | null;
}

/** Parses an exported bookmark file; never throws on odd input, it takes what it can read. */
export function parseNetscapeBookmarks(html: string, parser: DOMParser): ParsedBookmarks {
  const doc = parser.parseFromString(html, 'text/html');
  const h1 = cleanText(doc.querySelector('h1')?.textContent ?? '');
  const isRootName = BROWSER_ROOT_FOLDERS.some((name) => name.toLowerCase() === h1.toLowerCase());
  const state: WalkState = {
    folders: new Map(),
    skipped: [],
    rootName: isRootName ? h1 : IMPORTED_FOLDER_NAME,
    pending: null,
    lastLink: null,
  };
  walk(doc.documentElement, state);
  const folders = [...state.folders.values()]
    .filter((f) => f.links.length > 0 || (!f.hasSubfolders && !f.isRoot))
    .map(({ name, links, nested }) => (nested ? { name, links, nested } : { name, links }));
  return { folders, skipped: state.skipped };
}

/** Depth-first, in document order, with an explicit stack so deep nesting cannot overflow the call stack. */
function walk(root: Element, state: WalkState): void {
  const stack: { el: Element; path: string[] }[] = [{ el: root, path: [] }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { el, path } = item;
    let childPath = path;
    switch (el.tagName.toLowerCase()) {
      case 'a':
        readLink(el, path, state);
        continue;
      case 'h3':
        openFolder([...path, cleanText(el.textContent ?? '') || UNTITLED_FOLDER_NAME], state);
        continue;
      case 'dl':
        childPath = state.pending ?? path;
        state.pending = null;
        state.lastLink = null;
        break;
      case 'dt':
        state.lastLink = null;
        break;
      case 'dd':
        describeLastLink(el, state);
        break;
    }
    for (let i = el.children.length - 1; i >= 0; i--) {
      const child = el.children[i];
      if (child) stack.push({ el: child, path: childPath });
    }
  }
}

function openFolder(path: string[], state: WalkState): void {
  if (path.length > 1) folderFor(path.slice(0, -1), state).hasSubfolders = true;
  folderFor(path, state);
  state.pending = path;
  state.lastLink = null;
}

function folderFor(path: string[], state: WalkState): FolderEntry {
  const name = path.length === 0 ? state.rootName : path.join(FOLDER_SEPARATOR);
  let folder = state.folders.get(name);
  if (!folder) {
    folder = { name, links: [], hasSubfolders: false, isRoot: path.length === 0, nested: path.length > 1 };
    state.folders.set(name, folder);
  }
  return folder;
}

function readLink(a: Element, path: string[], state: WalkState): void {
  const url = (a.getAttribute('href') ?? '').trim();
  const title = cleanText(a.textContent ?? '') || url;
  state.lastLink = null;
  state.pending = null; // a folder `<H3>` followed by a link, not a `<DL>`, was empty
  const problem = urlProblem(url);
  if (problem !== null) {
    state.skipped.push({ title, url, reason: problem });
    return;
  }
  const link: ParsedLink = {
    url,
    title,
    createdAt: epochToIso(a.getAttribute('add_date')),
    tags: normalizeTags((a.getAttribute('tags') ?? '').split(',')),
    description: null,
  };
  folderFor(path, state).links.push(link);
  state.lastLink = link;
}

/** The `<DD>`'s own text: a folder's `<DD>` may hold the folder's `<DL>`, which is not part of it. */
function describeLastLink(dd: Element, state: WalkState): void {
  const link = state.lastLink;
  state.lastLink = null;
  if (!link) return;
  let text = '';
  for (const node of Array.from(dd.childNodes)) {
    const tag = node.nodeType === 1 ? (node as Element).tagName.toLowerCase() : '';
    if (tag === 'dl' || tag === 'dt') break;
    text += node.textContent ?? '';
  }
  link.description = text.trim() || null;
}

/**
 * Runs of HTML whitespace (space, tab, line breaks) become one space, then trimmed. Other spaces, such as
 * the ideographic space in CJK titles, are the author's and stay.
 */
export function cleanText(text: string): string {
  return text.replace(/[\t\n\f\r ]+/g, ' ').replace(/^ | $/g, '');
}

/** Trimmed, empty ones dropped, duplicates dropped (first kept). */
export function normalizeTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((tag) => tag.trim()).filter((tag) => tag !== ''))];
}

/**
 * Seconds since the epoch as ISO, to the whole second (the file's unit). Numbers too large to be seconds
 * are read as milliseconds or microseconds.
 */
export function epochToIso(value: string | null): string | null {
  const trimmed = value?.trim() ?? '';
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return null;
  const n = Number(trimmed);
  // 1e11 seconds is the year 5138, as are 1e14 milliseconds: nobody bookmarked then.
  const ms = n >= 1e14 ? n / 1000 : n >= 1e11 ? n : n * 1000;
  const date = new Date(Math.floor(ms / 1000) * 1000);
  return n > 0 && Number.isFinite(date.getTime()) ? date.toISOString() : null;
}
