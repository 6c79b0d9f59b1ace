/**
 * What another app shared (Web Share Target, manifest `share_target`: GET /share-target with
 * title, text and url), or the browser extension and the bookmarklet (also `note`: the selected
 * text), turned into the Add Link fields. Pure, so the rules are tested alone.
 */
import { cutText, storableText } from '../../../domain/storable-text.ts';

export interface SharedPage {
  url: string;
  title: string;
  /** The Notes field: the text selected on the page, if any. */
  notes: string;
  /** The url is not a web page's (chrome:, file:, about:, data:, …): nothing may be saved. */
  refused: boolean;
}

/** Said when the shared url is not a web page's (docs/product.md, Browser extension and bookmarklet). */
export const ONLY_WEB_PAGES = 'Only web pages (http or https) can be saved.';

/** The limits of the Add Link fields (docs/product.md, Validation): longer shared text is cut. */
const TITLE_MAX = 500;
const NOTES_MAX = 10_000;

const HTTP_URL = /https?:\/\/[^\s<>"'`]+/i;
/** Punctuation that ends a sentence rather than the URL ("see https://a.example/x."). */
const TRAILING = /[.,;:!?'"»]$/;
/** What the URL leaves behind in the text: empty brackets, punctuation after a space. */
const ORPHANS = /\(\s*\)|\[\s*\]|\s+[.,;:!?]+(?=\s|$)/g;
/** Separators left at the ends of the text once its URL is gone ("Title - https://…"). */
const EDGES = /^[\s\-–—:|·•]+|[\s\-–—:|·•]+$/g;

/** A URL scheme at the start ('chrome:', 'file:'), not a port ('localhost:5173'). */
const SCHEME = /^([a-z][a-z0-9+.-]*):(?!\d)/i;

/**
 * Text made storable (docs/product.md, Validation: no NUL character, no lone surrogate), since
 * the user did not type it: a NUL is dropped and a lone surrogate becomes U+FFFD.
 */
function storable(value: string | null): string {
  return storableText(value ?? '');
}

/** One line: runs of white space (line breaks too) become one space. */
function clean(value: string | null): string {
  return storable(value).replace(/\s+/g, ' ').trim();
}

/** Several lines: the line breaks are kept, runs of blank lines become one, each line trimmed at its end. */
function cleanLines(value: string | null): string {
  return storable(value)
    .replace(/\r\n?/g, '\n')
    .replace(/[^\S\n]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Whether `url` names a scheme other than http(s): a page the app cannot save. */
export function isNonWebUrl(url: string): boolean {
  const scheme = SCHEME.exec(url.trim())?.[1]?.toLowerCase();
  return scheme !== undefined && scheme !== 'http' && scheme !== 'https';
}

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}

/** The first http(s) URL in free text, without the punctuation that follows it in a sentence. */
export function firstHttpUrl(text: string): string | null {
  let url = HTTP_URL.exec(text)?.[0];
  if (!url) return null;
  for (;;) {
    if (TRAILING.test(url)) url = url.slice(0, -1);
    // A closing parenthesis belongs to the URL only when it closes one opened inside it.
    else if (url.endsWith(')') && count(url, ')') > count(url, '(')) url = url.slice(0, -1);
    else return url;
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

/**
 * The url is `url`, else the first http(s) URL in `text` (Android apps often share only text).
 * The title is `title`, else the text without its URL, else the URL's host; the notes are `note`.
 * Title and notes are cut to the fields' limits, without halving an emoji.
 */
export function sharedPage(params: URLSearchParams): SharedPage {
  const text = clean(params.get('text'));
  const inText = firstHttpUrl(text);
  const url = clean(params.get('url')) || inText || '';
  const rest = clean((inText ? text.replace(inText, ' ') : text).replace(ORPHANS, ' ')).replace(EDGES, '');
  const title = cutText(clean(params.get('title')) || rest || hostOf(url), TITLE_MAX).trim();
  const notes = cutText(cleanLines(params.get('note')), NOTES_MAX).trim();
  return { url, title, notes, refused: isNonWebUrl(url) };
}
