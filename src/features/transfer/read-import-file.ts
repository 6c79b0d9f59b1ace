/**
 * An import file to its content: a browser bookmark file (Netscape HTML, parsed with the browser's
 * DOMParser) or this app's JSON export (parseWorkspaceExport). The file is read as bytes and decoded in
 * the encoding it declares (decode-import.ts: BOM, then the HTML's `<meta>` charset, then UTF-8);
 * what could not be read is said in the preview. Anything that is not a bookmarks file is refused with
 * a sentence saying so, before anything is written.
 */
import { decodeImport, looksLikeJson } from '../../domain/bookmarks/decode-import.ts';
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
const isJsonName = (fileName: string) => /\.json$/i.test(fileName);

/** The file's text, already decoded; `warnings` are what the decoding could not read. */
export function readImportText(fileName: string, text: string, parser: DOMParser, warnings: string[] = []): ReadImport {
  const trimmed = text.trimStart();
  if (isJsonName(fileName) || trimmed.startsWith('{')) {
    const parsed = parseWorkspaceExport(text);
    return parsed.ok ? { ok: true, source: fromWorkspace(parsed.value, warnings) } : { ok: false, error: parsed.error };
  }
  if (!NETSCAPE.test(trimmed.slice(0, 1024)) && !isBookmarkList(text)) return { ok: false, error: NOT_BOOKMARKS };
  const source = fromBookmarks(parseNetscapeBookmarks(text, parser), warnings);
  const rejected = Object.values(source.rejected).reduce((n, count) => n + count, 0);
  if (rejected === 0 && source.folders.every((folder) => folder.links.length === 0)) {
    return { ok: false, error: EMPTY_FILE };
  }
  return { ok: true, source };
}

/** The file's bytes, decoded in the encoding they declare. */
export function readImportBytes(fileName: string, bytes: Uint8Array, parser: DOMParser): ReadImport {
  const kind = isJsonName(fileName) || looksLikeJson(bytes) ? 'json' : 'html';
  const { text, warnings } = decodeImport(bytes, kind);
  return readImportText(fileName, text, parser, warnings);
}

/** Reads a chosen file; a file that cannot be read is 'not a bookmarks file' too. */
export async function readImportFile(file: File, parser: DOMParser): Promise<ReadImport> {
  try {
    return readImportBytes(file.name, new Uint8Array(await file.arrayBuffer()), parser);
  } catch {
    return { ok: false, error: NOT_BOOKMARKS };
  }
}
