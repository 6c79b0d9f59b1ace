/**
 * An import file's text to its content (issue 16): a browser bookmark file (Netscape HTML, parsed
 * with the browser's DOMParser) or this app's JSON export (parseWorkspaceExport). Anything else
 * is refused with a sentence saying so, before anything is written.
 */
import { parseNetscapeBookmarks } from '../../domain/bookmarks/netscape-parse.ts';
import { fromBookmarks, fromWorkspace, type ImportSource } from './import-source.ts';
import { parseWorkspaceExport } from './workspace-export.ts';

export const NOT_BOOKMARKS = 'This file is not a bookmarks file.';
export const EMPTY_FILE = 'This file holds no bookmarks.';
export const ACCEPTED_FILES = '.html,.htm,.json';

export type ReadImport = { ok: true; source: ImportSource } | { ok: false; error: string };

const NETSCAPE = /<!DOCTYPE\s+NETSCAPE-Bookmark-file/i;
/** A bookmark list without the doctype (some tools leave it out): a `<DL>` holding `<DT><A`. */
const isBookmarkList = (text: string) => /<dl[\s>]/i.test(text) && /<dt[\s>]\s*<a\s/i.test(text);

export function readImportText(fileName: string, text: string, parser: DOMParser): ReadImport {
  const trimmed = text.trimStart();
  if (/\.json$/i.test(fileName) || trimmed.startsWith('{')) {
    const parsed = parseWorkspaceExport(text);
    return parsed.ok ? { ok: true, source: fromWorkspace(parsed.value) } : { ok: false, error: parsed.error };
  }
  if (!NETSCAPE.test(trimmed.slice(0, 1024)) && !isBookmarkList(text)) return { ok: false, error: NOT_BOOKMARKS };
  const parsed = parseNetscapeBookmarks(text, parser);
  const source = fromBookmarks(parsed);
  if (source.notHttp === 0 && source.folders.every((folder) => folder.links.length === 0)) {
    return { ok: false, error: EMPTY_FILE };
  }
  return { ok: true, source };
}

/** Reads a chosen file; a file that cannot be read is 'not a bookmarks file' too. */
export async function readImportFile(file: File, parser: DOMParser): Promise<ReadImport> {
  try {
    return readImportText(file.name, await file.text(), parser);
  } catch {
    return { ok: false, error: NOT_BOOKMARKS };
  }
}
