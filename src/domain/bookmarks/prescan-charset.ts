/**
 * The charset a bookmark file declares in a `<meta>` near its top, read from the bytes as the HTML
 * standard's 'prescan a byte stream to determine its encoding' does (https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding):
 * the bytes are read as ASCII, comments and other tags are stepped over, and a
 * `<meta charset=...>` or a `<meta http-equiv="Content-Type" content="...; charset=...">` gives the
 * label. Only the first PRESCAN_BYTES are looked at. A label the platform's TextDecoder does not know is
 * passed over, as the standard says, but remembered so the reader can say the file named one.
 */

export const PRESCAN_BYTES = 1024;

export interface Prescan {
  /** The encoding's name as TextDecoder gives it ('windows-1252', 'shift_jis'), or null when none. */
  encoding: string | null;
  /** The first label a `<meta>` gave that is not a known encoding, as written (trimmed). */
  unknownLabel: string | null;
}

const TAB = 0x09;
const LF = 0x0a;
const FF = 0x0c;
const CR = 0x0d;
const SPACE = 0x20;
const SLASH = 0x2f;
const LT = 0x3c;
const EQ = 0x3d;
const GT = 0x3e;

const isSpace = (b: number | undefined) => b === TAB || b === LF || b === FF || b === CR || b === SPACE;
const isLetter = (b: number | undefined) => b !== undefined && ((b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a));
/** A byte as the prescan reads it: A-Z lowercased, every other byte its own code point. */
const lower = (b: number) => String.fromCharCode(b >= 0x41 && b <= 0x5a ? b + 0x20 : b);

/** Thrown when the bytes end inside a construct: the standard then ends the prescan with no answer. */
class EndOfInput extends Error {}

/** The encoding of a label as TextDecoder knows it, or null ('replacement' labels included). */
export function encodingOf(label: string): string | null {
  const trimmed = label.trim().toLowerCase();
  if (trimmed === 'x-user-defined') return 'x-user-defined';
  try {
    return new TextDecoder(trimmed).encoding;
  } catch {
    return null;
  }
}

export function prescanCharset(bytes: Uint8Array): Prescan {
  const reader = new ByteReader(bytes.subarray(0, PRESCAN_BYTES));
  const result: Prescan = { encoding: null, unknownLabel: null };
  try {
    for (; reader.pos < reader.end; reader.pos += 1) {
      if (reader.startsWith('<!--')) {
        reader.skipComment();
      } else if (reader.startsWith('<meta') && (isSpace(reader.at(5)) || reader.at(5) === SLASH)) {
        reader.pos += 5;
        const encoding = readMeta(reader, result);
        if (encoding !== null) {
          result.encoding = encoding;
          return result;
        }
      } else if (
        reader.at(0) === LT &&
        (isLetter(reader.at(1)) || (reader.at(1) === SLASH && isLetter(reader.at(2))))
      ) {
        reader.pos += reader.at(1) === SLASH ? 2 : 1;
        while (reader.pos < reader.end && !isSpace(reader.at(0)) && reader.at(0) !== GT) reader.pos += 1;
        while (reader.attribute() !== null);
      } else if (reader.startsWith('<!') || reader.startsWith('</') || reader.startsWith('<?')) {
        reader.skipTo(GT);
      }
    }
  } catch (error) {
    if (!(error instanceof EndOfInput)) throw error;
  }
  return result;
}

/** A `<meta>`'s attributes (the reader just after '<meta'); the encoding it declares, or null. */
function readMeta(reader: ByteReader, result: Prescan): string | null {
  const seen = new Set<string>();
  let gotPragma = false;
  let needPragma: boolean | null = null;
  let label: string | null = null;
  for (let attr = reader.attribute(); attr !== null; attr = reader.attribute()) {
    if (seen.has(attr.name)) continue;
    seen.add(attr.name);
    if (attr.name === 'http-equiv') {
      if (attr.value === 'content-type') gotPragma = true;
    } else if (attr.name === 'content') {
      const fromContent = charsetFromContent(attr.value);
      if (fromContent !== null && label === null) {
        label = fromContent;
        needPragma = true;
      }
    } else if (attr.name === 'charset') {
      label = attr.value;
      needPragma = false;
    }
  }
  if (needPragma === null || (needPragma && !gotPragma) || label === null) return null;
  const encoding = encodingOf(label);
  if (encoding === null) {
    result.unknownLabel ??= label.trim();
    return null;
  }
  // A `<meta>` read as ASCII cannot be in UTF-16; x-user-defined is a legacy alias.
  if (encoding === 'utf-16le' || encoding === 'utf-16be') return 'utf-8';
  return encoding === 'x-user-defined' ? 'windows-1252' : encoding;
}

/** The standard's 'extracting a character encoding from a meta element', on a content value. */
export function charsetFromContent(content: string): string | null {
  const text = content.toLowerCase();
  let from = 0;
  for (;;) {
    const at = text.indexOf('charset', from);
    if (at < 0) return null;
    let i = at + 7;
    while (isSpace(text.charCodeAt(i))) i += 1;
    if (text[i] !== '=') {
      from = at + 7;
      continue;
    }
    i += 1;
    while (isSpace(text.charCodeAt(i))) i += 1;
    const first = content[i];
    if (first === undefined) return null;
    if (first === '"' || first === "'") {
      const close = content.indexOf(first, i + 1);
      return close < 0 ? null : content.slice(i + 1, close);
    }
    let end = i;
    while (end < content.length && !isSpace(content.charCodeAt(end)) && content[end] !== ';') end += 1;
    return content.slice(i, end);
  }
}

class ByteReader {
  pos = 0;
  readonly end: number;
  constructor(private readonly bytes: Uint8Array) {
    this.end = bytes.length;
  }

  at(offset: number): number | undefined {
    return this.bytes[this.pos + offset];
  }

  /** Whether the bytes here spell `ascii` (lowercase), in any case. */
  startsWith(ascii: string): boolean {
    for (let i = 0; i < ascii.length; i++) {
      const b = this.at(i);
      if (b === undefined || lower(b) !== ascii[i]) return false;
    }
    return true;
  }

  /** To the '>' of the first '-->' after the '<' of '<!--' ('<!-->' ends there too). */
  skipComment(): void {
    for (let i = this.pos + 2; i + 2 < this.end; i++) {
      if (this.bytes[i] === 0x2d && this.bytes[i + 1] === 0x2d && this.bytes[i + 2] === GT) {
        this.pos = i + 2;
        return;
      }
    }
    throw new EndOfInput();
  }

  skipTo(byte: number): void {
    while (this.pos < this.end && this.at(0) !== byte) this.pos += 1;
    if (this.pos >= this.end) throw new EndOfInput();
  }

  private byte(): number {
    const b = this.at(0);
    if (b === undefined) throw new EndOfInput();
    return b;
  }

  /** The standard's 'get an attribute': null at the tag's end. */
  attribute(): { name: string; value: string } | null {
    while (isSpace(this.byte()) || this.byte() === SLASH) this.pos += 1;
    if (this.byte() === GT) return null;
    let name = '';
    let value = '';
    for (; ; this.pos += 1) {
      const b = this.byte();
      if (b === EQ && name !== '') break;
      if (isSpace(b)) {
        while (isSpace(this.byte())) this.pos += 1;
        if (this.byte() !== EQ) return { name, value };
        break;
      }
      if (b === SLASH || b === GT) return { name, value };
      name += lower(b);
    }
    this.pos += 1; // past '='
    while (isSpace(this.byte())) this.pos += 1;
    const first = this.byte();
    if (first === 0x22 || first === 0x27) {
      for (this.pos += 1; this.byte() !== first; this.pos += 1) value += lower(this.byte());
      this.pos += 1;
      return { name, value };
    }
    if (first === GT) return { name, value };
    for (; !isSpace(this.byte()) && this.byte() !== GT; this.pos += 1) value += lower(this.byte());
    return { name, value };
  }
}
