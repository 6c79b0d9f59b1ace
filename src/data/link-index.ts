/**
 * The duplicate rule's key on each stored link (docs/architecture.md, Duplicate links): `_urlKey`,
 * the link's identity (src/domain/link-identity.ts), indexed so a URL typed in Add Link finds the
 * links it repeats with one index lookup. Like the calendar's keys it is local only (never a
 * column, never sent or exported) and set on every put by the local-keys middleware
 * (local-keys.ts), so a mutation, a pull, a push answer and an upgrade all write it. A link whose
 * URL has no key (a row from elsewhere the rule cannot read) has none and is in no index entry.
 */
import { linkIdentity } from '../domain/link-identity.ts';

export interface LinkKeys {
  _urlKey?: string;
}

/** The fields LinkKeys sets (those a put must replace, the comparison with a server row must ignore). */
export const LINK_KEY_FIELDS = ['_urlKey'] as const;

/** The row with its key, a stale one dropped. */
export function withLinkKeys<T extends { url: string }>(row: T): T & LinkKeys {
  const bare = { ...row } as T & LinkKeys;
  delete bare._urlKey;
  const key = linkIdentity(row.url);
  if (key !== null) bare._urlKey = key;
  return bare;
}

/** The identity key a stored link carries (null for a URL the rule cannot read). */
export function urlKeyOf(row: object): string | null {
  const key: unknown = Reflect.get(row, '_urlKey');
  return typeof key === 'string' ? key : null;
}
