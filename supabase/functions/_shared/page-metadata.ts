/**
 * A link's preview read from its page (docs/architecture.md, Link previews): title, description,
 * site name, preview image and icon. The page is decoded in its own encoding (preview-charset.ts)
 * and streamed through htmlparser2 only up to the end of its head (page-head.ts). Each field is
 * taken from the first source that has it, in this order: Open Graph, Twitter cards, JSON-LD, then
 * the plain HTML (`<title>`, `<meta name="description">`, `<meta name="application-name">`).
 * Texts are cleaned and cut to the lengths of a saved link (preview-text.ts); URLs are resolved
 * against `<base href>` or the page's final URL (after redirects), http(s) only.
 */
import { LINK_DESCRIPTION_MAX, LINK_TITLE_MAX } from '../../../src/domain/link-limits.ts';
import { chooseIcon } from './page-icon.ts';
import { readHead } from './page-head.ts';
import { readJsonLd } from './page-json-ld.ts';
import { pageEncoding } from './preview-charset.ts';
import { previewText, previewUrl } from './preview-text.ts';

/** The longest site name kept (a publisher's or application's name). */
export const SITE_NAME_MAX = 200;

export interface PageMetadata {
  title: string | null;
  description: string | null;
  siteName: string | null;
  /** The preview image's absolute http(s) URL, to fetch with fetchImage. */
  image: string | null;
  /** The icon's absolute http(s) URL (the site's /favicon.ico when the page names none). */
  icon: string | null;
}

/** What a fetched page (fetchPage's result) says of itself. */
export function readPageMetadata(page: { url: string; charset: string | null; body: Uint8Array }): PageMetadata {
  const head = readHead(decodeInChunks(page.body, pageEncoding(page.body, page.charset)));
  const base = previewUrl(head.base, page.url) ?? page.url;
  const meta = (...keys: string[]) => keys.map((key) => head.meta.get(key)).find((value) => value?.trim());
  const ld = readJsonLd(head.jsonLd);
  const url = (value: string | null | undefined) => previewUrl(value, base);
  return {
    title: previewText(meta('og:title', 'twitter:title') ?? ld.title ?? head.title, LINK_TITLE_MAX),
    description: previewText(
      meta('og:description', 'twitter:description') ?? ld.description ?? meta('description'),
      LINK_DESCRIPTION_MAX,
    ),
    siteName: previewText(meta('og:site_name') ?? ld.siteName ?? meta('application-name'), SITE_NAME_MAX),
    image:
      secureImage(url(meta('og:image:secure_url'))) ??
      url(meta('og:image', 'og:image:url')) ??
      url(meta('twitter:image', 'twitter:image:src')) ??
      url(ld.image),
    icon: chooseIcon(head.icons, base, page.url),
  };
}

function secureImage(url: string | null): string | null {
  return url?.startsWith('https:') ? url : null;
}

const CHUNK_BYTES = 16 * 1024;

/** The body decoded as it streams, one chunk at a time, so reading can stop at the head's end. */
function* decodeInChunks(body: Uint8Array, encoding: string): Generator<string> {
  const decoder = new TextDecoder(encoding, { ignoreBOM: false });
  for (let at = 0; at < body.length; at += CHUNK_BYTES) {
    yield decoder.decode(body.subarray(at, at + CHUNK_BYTES), { stream: true });
  }
  yield decoder.decode();
}
