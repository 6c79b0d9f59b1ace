// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  UNREADABLE_CHARACTERS,
  decodeImport,
  looksLikeJson,
  unknownCharset,
} from '../../../src/domain/bookmarks/decode-import.ts';
import { parseNetscapeBookmarks } from '../../../src/domain/bookmarks/netscape-parse.ts';
import { charsetFromContent, prescanCharset } from '../../../src/domain/bookmarks/prescan-charset.ts';

const bytes = (name: string) => new Uint8Array(readFileSync(join(import.meta.dirname, 'fixtures', `${name}.netscape`)));
const ascii = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));
const titles = (text: string) =>
  parseNetscapeBookmarks(text, new DOMParser()).folders.flatMap((f) => f.links.map((l) => l.title));

describe('decodeImport on files as tools wrote them', () => {
  it("reads Internet Explorer's windows-1252 export as its <meta> says: 'Café', not 'Caf\u{fffd}'", () => {
    const file = bytes('ie8-windows-1252');
    expect(file.includes(0xe9)).toBe(true); // é as the one byte windows-1252 gives it
    const decoded = decodeImport(file, 'html');
    expect(decoded).toMatchObject({ encoding: 'windows-1252', from: 'meta', warnings: [] });
    // Node 20's TextDecoder reads windows-1252's 0x80-0x9F ('€', '–') as Latin-1 controls, unlike
    // browsers; the whole title, '€' included, is checked in Chromium (e2e/import-export.spec.ts).
    const [cafe, msn, php] = titles(decoded.text);
    expect(cafe).toMatch(/^Café Müller .{1,2}Menü .?5$/u);
    expect(msn).toBe('MSN.com');
    expect(php).toMatch(/^PHP: Handbuch .{1,2}Straße & Größe$/u);
    const folders = parseNetscapeBookmarks(decoded.text, new DOMParser()).folders.map((f) => f.name);
    expect(folders).toEqual(['Favorites Bar', 'Entwicklung / PHP']);
  });

  it('reads a Shift_JIS export', () => {
    const decoded = decodeImport(bytes('ie-shift_jis'), 'html');
    expect(decoded).toMatchObject({ encoding: 'shift_jis', from: 'meta', warnings: [] });
    expect(titles(decoded.text)).toEqual(['ＮＨＫニュース\u3000表示']);
  });

  it('lets a UTF-16LE byte order mark win over a <meta> that says UTF-8', () => {
    const file = bytes('chrome-utf-16le-bom');
    expect([file[0], file[1]]).toEqual([0xff, 0xfe]);
    const decoded = decodeImport(file, 'html');
    expect(decoded).toMatchObject({ encoding: 'utf-16le', from: 'bom', warnings: [] });
    expect(decoded.text.startsWith('<!DOCTYPE')).toBe(true); // the BOM itself is not text
    expect(titles(decoded.text)).toEqual(['Café 😀 日本']);
  });

  it('lets a UTF-8 or UTF-16BE byte order mark win over a <meta> that says windows-1252', () => {
    const html =
      '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=windows-1252"><DL><DT><A HREF="https://a.example/">Café</A></DL>';
    const utf8 = new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from(html, 'utf8')]);
    expect(decodeImport(utf8, 'html')).toMatchObject({ encoding: 'utf-8', from: 'bom', warnings: [] });
    expect(titles(decodeImport(utf8, 'html').text)).toEqual(['Café']);
    const be = Buffer.from(html, 'utf16le').swap16();
    const utf16be = new Uint8Array([0xfe, 0xff, ...be]);
    expect(decodeImport(utf16be, 'html')).toMatchObject({ encoding: 'utf-16be', from: 'bom', warnings: [] });
    expect(titles(decodeImport(utf16be, 'html').text)).toEqual(['Café']);
  });

  it('reads UTF-8 exports (Edge, Chrome, Firefox) as UTF-8, with no warning', () => {
    for (const name of ['edge', 'chrome', 'firefox', 'safari', 'raindrop']) {
      const decoded = decodeImport(bytes(name), 'html');
      expect(decoded, name).toMatchObject({ encoding: 'utf-8', from: 'meta', warnings: [] });
    }
    expect(titles(decodeImport(bytes('edge'), 'html').text)).toEqual(['Bing', 'Café – menü']);
  });

  it('reads a file without a BOM or a <meta> as UTF-8', () => {
    const file = new Uint8Array(Buffer.from('<DL><DT><A HREF="https://a.example/">Ünïcödé 日本</A></DL>', 'utf8'));
    expect(decodeImport(file, 'html')).toMatchObject({ encoding: 'utf-8', from: 'default', warnings: [] });
  });

  it('says so when bytes are not valid in the encoding, and keeps the rest', () => {
    // A windows-1252 'é' in a file that declares UTF-8 (a tool that wrote the wrong meta).
    const file = ascii('<meta charset="utf-8"><DL><DT><A HREF="https://a.example/">Caf\xe9 au lait</A></DL>');
    const decoded = decodeImport(file, 'html');
    expect(decoded.warnings).toEqual([UNREADABLE_CHARACTERS]);
    expect(titles(decoded.text)).toEqual(['Caf\u{fffd} au lait']);
    // A broken Shift_JIS pair.
    const sjis = ascii('<meta charset="shift_jis"><DL><DT><A HREF="https://a.example/">\x93\xfa\x82</A></DL>');
    expect(decodeImport(sjis, 'html').warnings).toEqual([UNREADABLE_CHARACTERS]);
  });

  it('reads a label it does not know as UTF-8 and says which label it was', () => {
    const file = ascii('<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=x-mac-klingon"><DL></DL>');
    const decoded = decodeImport(file, 'html');
    expect(decoded).toMatchObject({ encoding: 'utf-8', from: 'default' });
    expect(decoded.warnings).toEqual([unknownCharset('x-mac-klingon')]);
    expect(decoded.warnings[0]).toBe(
      'This file says its text is in "x-mac-klingon", which this browser cannot read: it was read as UTF-8.',
    );
  });

  it('reads JSON as UTF-8, or UTF-16 by its BOM, and never looks for a <meta> in it', () => {
    const json = '{"title":"<meta charset=windows-1252> Café"}';
    expect(decodeImport(new Uint8Array(Buffer.from(json, 'utf8')), 'json')).toMatchObject({
      text: json,
      encoding: 'utf-8',
      warnings: [],
    });
    const utf16 = new Uint8Array([0xff, 0xfe, ...Buffer.from(json, 'utf16le')]);
    expect(decodeImport(utf16, 'json')).toMatchObject({ text: json, encoding: 'utf-16le', warnings: [] });
    expect(looksLikeJson(utf16)).toBe(true);
    expect(looksLikeJson(new Uint8Array(Buffer.from('\n  {"a":1}')))).toBe(true);
    expect(looksLikeJson(bytes('chrome'))).toBe(false);
  });
});

describe('prescanCharset, as the HTML standard reads a <meta>', () => {
  const scan = (head: string) => prescanCharset(ascii(head)).encoding;

  it('takes <meta charset> and the http-equiv pragma, in any case and quoting', () => {
    expect(scan('<meta charset=ISO-8859-1>')).toBe('windows-1252'); // the Encoding standard's alias
    expect(scan("<META CHARSET='Shift_JIS'>")).toBe('shift_jis');
    expect(scan('<meta http-equiv=content-type content="text/html;charset=euc-jp">')).toBe('euc-jp');
    expect(scan('<meta content="text/html; charset=koi8-r" http-equiv="Content-Type">')).toBe('koi8-r');
    expect(scan('<meta/charset="gbk"/>')).toBe('gbk');
  });

  it('needs the pragma for content=, and passes over what a browser passes over', () => {
    expect(scan('<meta content="text/html; charset=koi8-r">')).toBeNull();
    expect(scan('<!-- <meta charset="koi8-r"> --><meta charset="euc-kr">')).toBe('euc-kr');
    expect(scan('<title a="<meta charset=koi8-r>"></title><meta charset="big5">')).toBe('big5');
    expect(scan('<metal charset="koi8-r">')).toBeNull();
    expect(scan('<meta charset="bogus"><meta charset="windows-1250">')).toBe('windows-1250');
  });

  it('reads a <meta> declaring UTF-16 as UTF-8 (ASCII bytes cannot be UTF-16)', () => {
    expect(scan('<meta charset="utf-16le">')).toBe('utf-8');
    expect(scan('<meta charset="x-user-defined">')).toBe('windows-1252');
  });

  it('looks at the first 1,024 bytes only', () => {
    expect(scan(`<!DOCTYPE x>${' '.repeat(1000)}<meta charset="koi8-r">`)).toBeNull();
    expect(scan(`<!DOCTYPE x>${' '.repeat(900)}<meta charset="koi8-r">`)).toBe('koi8-r');
  });

  it('extracts the charset from a content value as the standard does', () => {
    expect(charsetFromContent('text/html; charset=UTF-8')).toBe('UTF-8');
    expect(charsetFromContent('text/html; charset = "windows-1252" ; x')).toBe('windows-1252');
    expect(charsetFromContent('text/html; charsetx; charset=koi8-r;')).toBe('koi8-r');
    expect(charsetFromContent('text/html; charset="unclosed')).toBeNull();
    expect(charsetFromContent('text/html')).toBeNull();
  });
});
