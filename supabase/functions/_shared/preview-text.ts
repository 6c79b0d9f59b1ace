/**
 * Text and URLs read from a page, made fit to keep: whitespace collapsed and trimmed, NUL
 * characters dropped and lone surrogates replaced (src/domain/storable-text.ts, the rule every
 * stored text follows), cut to the product's lengths without splitting an emoji. URLs are resolved
 * against the page, http(s) only and no longer than the server keeps one.
 */
import { URL_MAX } from '../../../src/domain/bookmarks/url-problem.ts';
import { cutText, storableText } from '../../../src/domain/storable-text.ts';

/** `value` as a preview keeps it, at most `max` characters; null when nothing is left. */
export function previewText(value: string | null | undefined, max: number): string | null {
  if (value == null) return null;
  const clean = cutText(storableText(value).replace(/\s+/g, ' ').trim(), max).trim();
  return clean === '' ? null : clean;
}

/** `value` resolved against `base`: an http(s) URL the server can keep, or null. */
export function previewUrl(value: string | null | undefined, base: string): string | null {
  const given = value == null ? '' : storableText(value).trim();
  if (given === '') return null;
  try {
    const url = new URL(given, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.href.length <= URL_MAX ? url.href : null;
  } catch {
    return null;
  }
}
