/**
 * The one exception to the preview fetch's address rules, for tests: `PREVIEW_FETCH_ALLOW` lists
 * loopback `address:port` pairs (`127.0.0.1:4567`, `[::1]:4567`, comma-separated) a fixture server
 * listens on. It is off unless set, only loopback addresses are taken, and it is ignored, with a
 * warning, in production (`NODE_ENV=production`) and on the hosted runtime (Deno Deploy and
 * Supabase's Edge Runtime set `DENO_DEPLOYMENT_ID` / `SB_REGION`), so no secret can open the rules there.
 */
import ipaddr from 'ipaddr.js';

/** The `address:port` pairs a fetch may reach despite the rules: loopback only. */
export type AllowList = ReadonlySet<string>;

export const NO_EXCEPTIONS: AllowList = new Set();

const PRODUCTION_MARKERS = ['DENO_DEPLOYMENT_ID', 'SB_REGION'] as const;

/** The allow list `PREVIEW_FETCH_ALLOW` gives, read through `get` (an environment's lookup). */
export function previewFetchAllow(
  get: (name: string) => string | undefined,
  warn: (message: string) => void = console.warn,
): AllowList {
  const value = get('PREVIEW_FETCH_ALLOW')?.trim();
  if (!value) return NO_EXCEPTIONS;
  if (get('NODE_ENV') === 'production' || PRODUCTION_MARKERS.some((name) => get(name))) {
    warn('PREVIEW_FETCH_ALLOW is ignored in production: link previews never reach a private address.');
    return NO_EXCEPTIONS;
  }
  const pairs = new Set<string>();
  for (const entry of value.split(',').map((part) => part.trim())) {
    const pair = loopbackPair(entry);
    if (pair) pairs.add(pair);
    else warn(`PREVIEW_FETCH_ALLOW: ${JSON.stringify(entry)} is not a loopback address:port; ignored.`);
  }
  return pairs;
}

/** `address:port` in the form `allowKey` gives, when `entry` names a loopback address and a port. */
function loopbackPair(entry: string): string | null {
  const match = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(entry);
  if (!match || !ipaddr.isValid(match[1]!)) return null;
  const address = ipaddr.process(match[1]!);
  const port = Number(match[2]);
  if (address.range() !== 'loopback' || port < 1 || port > 65535) return null;
  return allowKey(address.toNormalizedString(), port);
}

/** The key of a connection to `address` (as ipaddr.js normalizes it) on `port`; '' for no address. */
export function allowKey(address: string, port: number): string {
  return ipaddr.isValid(address) ? `${ipaddr.process(address).toNormalizedString()} ${port}` : '';
}
