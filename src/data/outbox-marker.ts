/**
 * A note of the waiting changes kept outside IndexedDB (docs/faults.md, Storage evicted): the
 * browser may clear the app's database (storage pressure, the user clearing site data) with
 * changes still waiting. localStorage keeps how many were waiting, the newest one's time and which
 * database they were in; on the next start, a database made anew while the note says changes
 * were waiting means they are gone, and the user is told so honestly. The rest comes back from
 * the server with the first pull.
 */
import type { LinkboardDb } from './db.ts';

export interface OutboxMarker {
  /** The database the count is of (a token kept in its meta table). */
  db: string;
  /** Changes waiting in its outbox (pending or failed). */
  waiting: number;
  /** The newest one's time (created_at), or null when none waits. */
  newest: string | null;
}

/** The meta row holding the database's token. */
export const DB_TOKEN_KEY = 'device_db';

/** Where the marker of `userId` is kept. */
export function markerKey(userId: string): string {
  return `lb_outbox_${userId}`;
}

function isMarker(value: unknown): value is OutboxMarker {
  if (!value || typeof value !== 'object') return false;
  const marker = value as Record<string, unknown>;
  return (
    typeof marker.db === 'string' &&
    typeof marker.waiting === 'number' &&
    (marker.newest === null || typeof marker.newest === 'string')
  );
}

export function readMarker(storage: Storage, userId: string): OutboxMarker | null {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(markerKey(userId)) ?? 'null');
    return isMarker(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

export function writeMarker(storage: Storage, userId: string, marker: OutboxMarker): void {
  try {
    storage.setItem(markerKey(userId), JSON.stringify(marker));
  } catch {
    // localStorage full or blocked: the note is a help, never a reason to fail.
  }
}

/** Sign-out deletes the database on purpose: its note goes with it. */
export function clearMarker(storage: Storage, userId: string): void {
  try {
    storage.removeItem(markerKey(userId));
  } catch {
    // Blocked storage keeps nothing to clear.
  }
}

/** The marker of `db` as its outbox is now. */
export async function markerOf(db: LinkboardDb, token: string): Promise<OutboxMarker> {
  const [waiting, last] = await Promise.all([db.outbox.count(), db.outbox.orderBy('seq').last()]);
  return { db: token, waiting, newest: last?.created_at ?? null };
}

/**
 * Run when the database opens, with the marker as it was before anything of this start wrote it.
 * A database without a token was made now (first start, or the browser cleared it): it gets one,
 * and the changes the marker counted as waiting in the earlier one are lost. Returns the
 * database's token and how many changes were lost.
 */
export async function checkEvicted(
  db: LinkboardDb,
  before: OutboxMarker | null,
): Promise<{ token: string; lost: number; newest: string | null }> {
  // Read first: a start on the same database (nearly every start) opens no read-write transaction.
  const stored = await db.meta.get(DB_TOKEN_KEY);
  // The same database, or one made anew that another tab has already told of.
  if (typeof stored?.value === 'string') return { token: stored.value, lost: 0, newest: null };
  return db.transaction('rw', db.meta, async () => {
    const again = await db.meta.get(DB_TOKEN_KEY);
    if (typeof again?.value === 'string') return { token: again.value, lost: 0, newest: null };
    const token = crypto.randomUUID();
    await db.meta.put({ key: DB_TOKEN_KEY, value: token });
    return { token, lost: before?.waiting ?? 0, newest: before?.newest ?? null };
  });
}

/** What the user is told of changes the browser cleared before they were sent (docs/product.md). */
export function evictedMessage(lost: number): string {
  return lost === 1
    ? "1 change made on this device could not be sent: the browser cleared the app's storage."
    : `${lost} changes made on this device could not be sent: the browser cleared the app's storage.`;
}

export interface MarkerKeeper {
  /** The start's check (checkEvicted). */
  checked: Promise<{ token: string; lost: number; newest: string | null }>;
  /** Writes the marker as the outbox is now (after a change is queued, after a sync). */
  update(): void;
}

/**
 * Keeps the marker of `userId` in step with `db`'s outbox: read before anything of this start can
 * write it, checked against the database, then written anew on every update (one at a time).
 */
export function keepOutboxMarker(db: LinkboardDb, userId: string, storage: Storage): MarkerKeeper {
  const before = readMarker(storage, userId);
  const checked = checkEvicted(db, before);
  let running: Promise<void> | null = null;
  let again = false;
  const run = async () => {
    do {
      again = false;
      const { token } = await checked;
      writeMarker(storage, userId, await markerOf(db, token));
    } while (again);
  };
  const update = () => {
    if (running) {
      again = true;
      return;
    }
    running = run()
      .catch(() => undefined)
      .finally(() => {
        running = null;
      });
  };
  update();
  return { checked, update };
}
