/**
 * Writes folders of links as a Netscape Bookmark File, the HTML every browser imports.
 *
 * Format decisions:
 * - The header is the one Chrome and Firefox write (`<!DOCTYPE NETSCAPE-Bookmark-file-1>`, a UTF-8 META,
 *   TITLE and H1 'Bookmarks'), with `<DT>` and `<p>` left unclosed as browsers do.
 * - Folders are written flat, one `<H3>` each under the root `<DL>`, named exactly as given: Linkboard
 *   directories are flat, and a name such as 'Work / Clients' then reads back unchanged.
 * - ADD_DATE is whole seconds since the epoch, left out when createdAt is null, unreadable or before 1970.
 * - TAGS is comma-separated, so a comma inside a tag becomes a space; tags are trimmed and deduplicated,
 *   and the attribute is left out when there are none.
 * - A description goes in a `<DD>` after its link (line breaks kept, CR LF written as LF, as HTML reads it).
 * - Text and attribute values are escaped (&, <, >, ", '), so parseNetscapeBookmarks reads back every
 *   folder name, url, title, tag, description and createdAt (to the second) of normalised input.
 */
import { normalizeTags } from './netscape-parse.ts';

export interface ExportLink {
  url: string;
  title: string;
  createdAt: string | null;
  tags: string[];
  description?: string | null;
}

export interface ExportFolder {
  name: string;
  links: ExportLink[];
}

const HEADER = [
  '<!DOCTYPE NETSCAPE-Bookmark-file-1>',
  '<!-- This is an automatically generated file.',
  '     It will be read and overwritten.',
  '     DO NOT EDIT! -->',
  '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">',
  '<TITLE>Bookmarks</TITLE>',
  '<H1>Bookmarks</H1>',
];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** The whole file as a string, lines ending in LF. */
export function exportNetscapeBookmarks(folders: readonly ExportFolder[]): string {
  const lines = [...HEADER, '<DL><p>'];
  for (const folder of folders) {
    lines.push(`    <DT><H3>${escapeHtml(folder.name)}</H3>`, '    <DL><p>');
    for (const link of folder.links) lines.push(...linkLines(link, '        '));
    lines.push('    </DL><p>');
  }
  lines.push('</DL><p>');
  return lines.join('\n') + '\n';
}

function linkLines(link: ExportLink, indent: string): string[] {
  const attributes = [`HREF="${escapeHtml(link.url)}"`];
  const seconds = isoToEpochSeconds(link.createdAt);
  if (seconds !== null) attributes.push(`ADD_DATE="${seconds}"`);
  const tags = normalizeTags(link.tags.map((tag) => tag.replaceAll(',', ' ')));
  if (tags.length > 0) attributes.push(`TAGS="${escapeHtml(tags.join(','))}"`);
  const lines = [`${indent}<DT><A ${attributes.join(' ')}>${escapeHtml(link.title)}</A>`];
  const description = link.description?.replace(/\r\n?/g, '\n').trim();
  if (description) lines.push(`${indent}<DD>${escapeHtml(description)}`);
  return lines;
}

/** Escapes the five characters that matter in HTML text and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);
}

/** Whole seconds since the epoch, or null for a missing, unreadable or pre-1970 date. */
export function isoToEpochSeconds(iso: string | null): number | null {
  if (iso === null) return null;
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms) || ms < 1000) return null;
  return Math.floor(ms / 1000);
}
