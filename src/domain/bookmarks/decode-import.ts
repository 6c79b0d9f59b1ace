/**
 * An import file's bytes to text, in the encoding the file says it is in, in the order the WHATWG
 * encoding sniffing algorithm (HTML standard, 'determining the character encoding') gives:
 * 1. a byte order mark (UTF-8, UTF-16LE, UTF-16BE) wins over everything;
 * 2. else, for a bookmark file (HTML), the charset its `<meta>` declares (prescan-charset.ts), as
 *    IE-era and many tools' files say 'windows-1252' or 'Shift_JIS' there;
 * 3. else UTF-8 (what every browser writes today; the standard leaves this step to the reader).
 * A JSON file (this app's export) is UTF-8, or UTF-16 with a BOM: it has no `<meta>`.
 * The platform's TextDecoder decodes. A declared label it does not know is read as UTF-8 and said so;
 * bytes that are not valid in the encoding become U+FFFD and the reader is told some characters
 * could not be read.
 */
import { prescanCharset } from './prescan-charset.ts';

export type DecodedFrom = 'bom' | 'meta' | 'default';

export interface DecodedImport {
  text: string;
  /** The encoding used, as TextDecoder names it ('utf-8', 'windows-1252', 'utf-16le', ...). */
  encoding: string;
  from: DecodedFrom;
  /** Sentences for the import's preview; empty when the file read cleanly. */
  warnings: string[];
}

export const UNREADABLE_CHARACTERS = 'Some characters in this file could not be read: they show as \u{fffd}.';
export const unknownCharset = (label: string) =>
  `This file says its text is in "${label.slice(0, 40)}", which this browser cannot read: it was read as UTF-8.`;

/** The encoding a byte order mark at the start names, and the mark's length. */
export function bomEncoding(bytes: Uint8Array): { encoding: string; length: number } | null {
  const [a, b, c] = bytes;
  if (a === 0xef && b === 0xbb && c === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (a === 0xfe && b === 0xff) return { encoding: 'utf-16be', length: 2 };
  if (a === 0xff && b === 0xfe) return { encoding: 'utf-16le', length: 2 };
  return null;
}

export function decodeImport(bytes: Uint8Array, kind: 'html' | 'json'): DecodedImport {
  const warnings: string[] = [];
  const bom = bomEncoding(bytes);
  let encoding = 'utf-8';
  let from: DecodedFrom = 'default';
  if (bom) {
    encoding = bom.encoding;
    from = 'bom';
  } else if (kind === 'html') {
    const meta = prescanCharset(bytes);
    if (meta.encoding !== null) {
      encoding = meta.encoding;
      from = 'meta';
    } else if (meta.unknownLabel !== null) {
      warnings.push(unknownCharset(meta.unknownLabel));
    }
  }
  // The BOM is dropped by TextDecoder itself (it names the encoding in use).
  let text: string;
  try {
    text = new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    text = new TextDecoder(encoding).decode(bytes);
    warnings.push(UNREADABLE_CHARACTERS);
  }
  return { text, encoding, from, warnings };
}

/**
 * Whether the bytes look like JSON: the first byte after a BOM, ASCII whitespace and (in UTF-16) the
 * zero half of each character, is '{'.
 */
export function looksLikeJson(bytes: Uint8Array): boolean {
  const start = bomEncoding(bytes)?.length ?? 0;
  for (let i = start; i < bytes.length && i < start + 4096; i++) {
    const b = bytes[i];
    if (b === 0x7b) return true;
    if (b !== 0x00 && b !== 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) return false;
  }
  return false;
}
