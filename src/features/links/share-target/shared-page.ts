/**
 * What another app shared (Web Share Target, manifest `share_target`: GET /share-target with
 * title, text and url), turned into the Add Link fields. Pure, so the rules are tested alone.
 */

export interface SharedPage {
  url: string;
  title: string;
}

const HTTP_URL = /https?:\/\/[^\s<>"'`]+/i;
/** Punctuation that ends a sentence rather than the URL ("see https://a.example/x."). */
const TRAILING = /[.,;:!?'"»]$/;
/** What the URL leaves behind in the text: empty brackets, punctuation after a space. */
const ORPHANS = /\(\s*\)|\[\s*\]|\s+[.,;:!?]+(?=\s|$)/g;
/** Separators left at the ends of the text once its URL is gone ("Title - https://…"). */
const EDGES = /^[\s\-–—:|·•]+|[\s\-–—:|·•]+$/g;

function clean(value: string | null): string {
  return (value ?? '').replace(/\s+/g, ' ').trim();
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
 * The title is `title`, else the text without its URL, else the URL's host.
 */
export function sharedPage(params: URLSearchParams): SharedPage {
  const text = clean(params.get('text'));
  const inText = firstHttpUrl(text);
  const url = clean(params.get('url')) || inText || '';
  const rest = clean((inText ? text.replace(inText, ' ') : text).replace(ORPHANS, ' ')).replace(EDGES, '');
  return { url, title: clean(params.get('title')) || rest || hostOf(url) };
}
