/**
 * A link's preview in one call, for the function that fills saved links in: the page fetched
 * through the guarded fetch (preview-fetch.ts) and its metadata read (page-metadata.ts), relative
 * URLs resolved against the URL the page finally came from. Never throws: every failure is a reason
 * (fetchFailureMessage words it for a person).
 */
import { readPageMetadata, type PageMetadata } from './page-metadata.ts';
import { fetchPage, type FetchFailure, type FetchOptions } from './preview-fetch.ts';

export type LinkPreview =
  | { ok: true; /** The page's final URL, after redirects. */ url: string; metadata: PageMetadata }
  | { ok: false; reason: FetchFailure; status?: number };

export async function readLinkPreview(url: string, options: FetchOptions = {}): Promise<LinkPreview> {
  const page = await fetchPage(url, options);
  if (!page.ok) return page;
  try {
    return { ok: true, url: page.url, metadata: readPageMetadata(page) };
  } catch {
    return { ok: false, reason: 'bad_response' };
  }
}
