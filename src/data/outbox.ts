/**
 * Outbox entries as stored in IndexedDB (design 3, Client): their shape (a schema that gives
 * the type), their version, and how entries written by an older app are upgraded or, when they
 * cannot be, failed with a reason the failed-changes panel shows (issue 11, point 3).
 */
import * as v from 'valibot';
import { argsProblem, mutationNames } from '../domain/mutation-contract.ts';
import type { LinkboardDb } from './db.ts';

/**
 * The version of the entries this app writes. 1: before versions (no `version` field; the same
 * args as 2). Raise it when an entry's shape or a mutation's args change, and add the
 * migration from the previous version below.
 */
export const OUTBOX_VERSION = 2;

const outboxEntry = v.object({
  /** Local order of the queue. */
  seq: v.optional(v.number()),
  /** The mutation id (a client-made uuid), the idempotency key on the server. */
  id: v.string(),
  name: v.picklist(mutationNames),
  args: v.record(v.string(), v.unknown()),
  created_at: v.string(),
  attempts: v.number(),
  /** 'failed': kept failing for a reason that is not the network; waits for retry or discard. */
  status: v.picklist(['pending', 'failed']),
  last_error: v.optional(v.string()),
  /** The entry's version (OUTBOX_VERSION when written); absent on entries of version 1. */
  version: v.optional(v.number()),
});

export type OutboxRow = v.InferOutput<typeof outboxEntry>;

/** What the failed-changes panel says of an entry that can no longer be sent. */
export const OUTDATED_ENTRY = 'This change was saved by an older version of Linkboard and can no longer be sent.';
export const NEWER_ENTRY = 'This change was saved by a newer version of Linkboard. Update the app to send it.';
export const DAMAGED_ENTRY = 'This change is damaged and cannot be sent.';

type StoredEntry = Record<string, unknown>;

/**
 * Migrations by the version they upgrade from: each returns the entry at the next version, or
 * a string saying why it cannot be upgraded.
 */
const migrations: Record<number, (entry: StoredEntry) => StoredEntry | string> = {
  1: (entry) => ({ ...entry, version: 2 }),
};

function versionOf(entry: StoredEntry): number {
  return typeof entry.version === 'number' ? entry.version : 1;
}

/** Null when `entry` is a valid entry of this version, else what is wrong. */
export function entryProblem(entry: unknown): string | null {
  const result = v.safeParse(outboxEntry, entry);
  if (!result.success)
    return `${DAMAGED_ENTRY} (${v.getDotPath(result.issues[0]) ?? 'entry'}: ${result.issues[0].message})`;
  if (versionOf(result.output) !== OUTBOX_VERSION) return OUTDATED_ENTRY;
  const args = argsProblem(result.output.name, result.output.args);
  return args === null ? null : `${DAMAGED_ENTRY} (${args})`;
}

/** The entry at this version (checked), or why it cannot be. */
export function upgradeEntry(entry: StoredEntry): OutboxRow | string {
  let current = entry;
  let version = versionOf(current);
  if (version > OUTBOX_VERSION) return NEWER_ENTRY;
  while (version < OUTBOX_VERSION) {
    const migrate = migrations[version];
    const next = migrate ? migrate(current) : OUTDATED_ENTRY;
    if (typeof next === 'string') return next;
    current = next;
    version = versionOf(current);
  }
  return entryProblem(current) ?? (current as OutboxRow);
}

export interface OutboxRead {
  /** Valid entries of this version, in queue order. */
  valid: OutboxRow[];
  /** The others, with their queue position and what is wrong. */
  invalid: { seq: number; reason: string }[];
}

/**
 * The whole queue in order, each entry checked and, when of an older version, upgraded in
 * memory (the engine never applies or sends an unchecked entry).
 */
export async function readOutbox(db: LinkboardDb): Promise<OutboxRead> {
  return checkEntries(await db.outbox.orderBy('seq').toArray());
}

/** Entries as read, checked (upgraded when they can be). */
export function checkEntries(rows: readonly unknown[]): OutboxRead {
  const out: OutboxRead = { valid: [], invalid: [] };
  for (const row of rows as StoredEntry[]) {
    const entry = entryProblem(row) === null ? (row as OutboxRow) : upgradeEntry(row);
    if (typeof entry === 'string') out.invalid.push({ seq: Number(row.seq), reason: entry });
    else out.valid.push(entry);
  }
  return out;
}

/**
 * Upgrades every entry of an older version in place; an entry that cannot be upgraded (or is
 * damaged) is moved to failed with the reason as its error, so the panel shows it and the user
 * can discard it. Returns how many entries were failed. Run when the engine starts.
 */
export async function upgradeOutbox(db: LinkboardDb): Promise<number> {
  // Read first: a queue with nothing to upgrade opens no read-write transaction.
  if ((await db.outbox.toArray()).every((row) => entryProblem(row) === null)) return 0;
  return db.transaction('rw', db.outbox, async () => {
    let failed = 0;
    const rows: StoredEntry[] = await db.outbox.toArray();
    for (const row of rows) {
      if (entryProblem(row) === null) continue;
      const seq = row.seq as number;
      const upgraded = upgradeEntry(row);
      if (typeof upgraded !== 'string') {
        await db.outbox.put(upgraded);
        continue;
      }
      failed += 1;
      await db.outbox.update(seq, failedEntry(row, upgraded));
    }
    return failed;
  });
}

/** The fields that make a stored entry a failed one the panel can show, retry and discard. */
function failedEntry(row: StoredEntry, reason: string): Partial<OutboxRow> {
  return {
    status: 'failed',
    last_error: reason,
    attempts: typeof row.attempts === 'number' ? row.attempts : 0,
    ...(typeof row.id === 'string' ? {} : { id: crypto.randomUUID() }),
  };
}
