/**
 * The encoding of a fetched page, as a browser settles it (the HTML standard's "determining the
 * character encoding", simplified): a byte-order mark first, then the Content-Type header's
 * charset, then a `<meta charset>` or `<meta http-equiv="Content-Type">` within the first 1024
 * bytes (read with htmlparser2, not a pattern), else UTF-8 when the bytes are valid UTF-8, else
 * windows-1252, the web's legacy default. Decoding is TextDecoder's, which knows every label the
 * Encoding standard lists (windows-1252, shift_jis, euc-kr, gb18030, ...) on Node and Deno alike.
 */
import { Parser } from 'htmlparser2';

const PRESCAN_BYTES = 1024;

/** The TextDecoder encoding `label` names, or null when it names none (or one a page may not use). */
export function encodingFor(label: string | null | undefined): string | null {
  if (!label) return null;
  try {
    const encoding = new TextDecoder(label.trim()).encoding;
    // A page that says UTF-16 in ASCII bytes is not UTF-16 (the standard reads it as UTF-8).
    return encoding.startsWith('utf-16') ? 'utf-8' : encoding;
  } catch {
    return null;
  }
}

function byteOrderMark(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return null;
}

/** The charset a `<meta>` in the first 1024 bytes declares, if any. */
export function declaredCharset(bytes: Uint8Array): string | null {
  let found: string | null = null;
  const parser = new Parser({
    onopentag(name, attributes) {
      if (found !== null || name !== 'meta') return;
      if (attributes.charset !== undefined) found = encodingFor(attributes.charset);
      else if (attributes['http-equiv']?.trim().toLowerCase() === 'content-type')
        found = encodingFor(charsetParameter(attributes.content ?? ''));
    },
  });
  // windows-1252 maps every byte to a character, and ASCII to itself: the markup reads the same.
  parser.write(new TextDecoder('windows-1252').decode(bytes.subarray(0, PRESCAN_BYTES)));
  parser.end();
  return found;
}

/** The value of `charset=` in a Content-Type value. */
function charsetParameter(contentType: string): string | null {
  for (const param of contentType.split(';').slice(1)) {
    const [key, value] = param.split('=', 2);
    if (key?.trim().toLowerCase() === 'charset' && value) return value.trim().replace(/^["']|["']$/g, '');
  }
  return null;
}

/** Whether the first 64 KB are valid UTF-8 (a sequence cut at the end of them is not held against it). */
function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, 65536), { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** The encoding to decode `bytes` with, given the header's charset (if any). */
export function pageEncoding(bytes: Uint8Array, headerCharset: string | null): string {
  return (
    byteOrderMark(bytes) ??
    encodingFor(headerCharset) ??
    declaredCharset(bytes) ??
    (isUtf8(bytes) ? 'utf-8' : 'windows-1252')
  );
}
