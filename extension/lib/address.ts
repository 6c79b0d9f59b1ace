/**
 * The Linkboard address the extension opens, kept in storage.sync (it follows the user's browser
 * profile); the address the extension was built for until the options page saves another.
 */
import { browser } from 'wxt/browser';
import { linkboardOrigin } from './share.ts';

const KEY = 'linkboardAddress';

/** The address the build was made for (LINKBOARD_URL at build time; wxt.config.ts checks it). */
export const BUILT_FOR: string = __LINKBOARD_URL__;

export async function readAddress(): Promise<string> {
  const stored = (await browser.storage.sync.get(KEY))[KEY];
  return (typeof stored === 'string' ? linkboardOrigin(stored) : null) ?? BUILT_FOR;
}

/** Saves the origin of `input`, or returns null (nothing saved) when it is not an http(s) origin. */
export async function writeAddress(input: string): Promise<string | null> {
  const origin = linkboardOrigin(input);
  if (origin !== null) await browser.storage.sync.set({ [KEY]: origin });
  return origin;
}
