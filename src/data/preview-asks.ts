/**
 * The links whose page the server is to read (docs/architecture.md, Link previews), kept in the
 * device's database so an ask made offline, or before the link reached the server, survives a
 * reload and is sent once the link is there (src/sync/link-previews.ts drains them after a sync).
 */
import type { LinkboardDb } from './db.ts';

export const PREVIEW_ASKS_KEY = 'previewAsks';

export interface PreviewAsk {
  id: string;
  /** Ask again for a page that failed (the card's Retry). */
  retry: boolean;
}

const listeners = new WeakMap<LinkboardDb, Set<() => void>>();

/** Called after asks were added (the session sends those whose links are on the server at once). */
export function onPreviewAsked(db: LinkboardDb, listener: () => void): () => void {
  const set = listeners.get(db) ?? new Set();
  listeners.set(db, set);
  set.add(listener);
  return () => set.delete(listener);
}

const isAsk = (value: unknown): value is PreviewAsk =>
  typeof value === 'object' &&
  value !== null &&
  typeof Reflect.get(value, 'id') === 'string' &&
  typeof Reflect.get(value, 'retry') === 'boolean';

/** The asks waiting, oldest first. */
export async function previewAsks(db: LinkboardDb): Promise<PreviewAsk[]> {
  const row = await db.meta.get(PREVIEW_ASKS_KEY);
  return Array.isArray(row?.value) ? row.value.filter(isAsk) : [];
}

/** Asks for the preview of these links (once each; a retry wins over a plain ask). */
export async function askForPreviews(db: LinkboardDb, ids: readonly string[], retry = false): Promise<void> {
  if (ids.length === 0) return;
  await db.transaction('rw', db.meta, async () => {
    const asks = new Map((await previewAsks(db)).map((ask) => [ask.id, ask]));
    for (const id of ids) asks.set(id, { id, retry: retry || (asks.get(id)?.retry ?? false) });
    await db.meta.put({ key: PREVIEW_ASKS_KEY, value: [...asks.values()] });
  });
  for (const listener of listeners.get(db) ?? []) listener();
}

/** Drops the asks that were answered. */
export async function dropPreviewAsks(db: LinkboardDb, ids: ReadonlySet<string>): Promise<void> {
  if (ids.size === 0) return;
  await db.transaction('rw', db.meta, async () => {
    const left = (await previewAsks(db)).filter((ask) => !ids.has(ask.id));
    await db.meta.put({ key: PREVIEW_ASKS_KEY, value: left });
  });
}
