/**
 * How the outbox is cut into pushes the server accepts (docs/sync-protocol.md "Limits"):
 * sync_push refuses more than 500 mutations whole (413), and the API refuses request bodies
 * over 1 MiB (413), so a push carries at most `maxCount` mutations and, unless it is a single
 * large one, `maxBytes` of JSON.
 */
import type { WireMutation } from '../backend/sync-transport.ts';

/** sync_push's limit: more mutations in one push are refused whole. */
export const MAX_PUSH_COUNT = 500;
/** A push of several mutations stays within half of the API's request body limit. */
export const MAX_PUSH_BYTES = 512 * 1024;
/** The API's request body limit (1 MiB): a mutation larger than this can never be sent. */
export const MAX_REQUEST_BYTES = 1024 * 1024;
/** Room for the envelope around the mutations: {"p_mutations":[...]}. */
const ENVELOPE_BYTES = 64;

/** Shown for a change that no push could carry (a failed mutation: retry or discard). */
export const TOO_LARGE = 'This change is too large to be saved.';

const encoder = new TextEncoder();

/** The mutation as it goes on the wire. */
export function wireMutation(row: WireMutation): WireMutation {
  return { id: row.id, name: row.name, args: row.args };
}

/** UTF-8 bytes of the mutation's JSON. */
export function encodedSize(mutation: WireMutation): number {
  return encoder.encode(JSON.stringify(wireMutation(mutation))).byteLength;
}

export type BatchPlan<T> = { kind: 'batch'; rows: T[] } | { kind: 'too-large'; row: T } | { kind: 'empty' };

/**
 * The longest prefix of the queue (in order) within maxCount mutations and maxBytes of JSON. A
 * head larger than maxBytes goes alone when a request can still carry it (maxRequestBytes);
 * beyond that no push ever could: it is answered 'too-large', so the caller takes it out of the
 * queue instead of sending it.
 */
export function planBatch<T extends WireMutation>(
  queue: readonly T[],
  maxCount: number,
  maxBytes: number,
  maxRequestBytes = MAX_REQUEST_BYTES,
): BatchPlan<T> {
  const rows: T[] = [];
  let bytes = ENVELOPE_BYTES;
  for (const row of queue) {
    if (rows.length >= maxCount) break;
    const size = encodedSize(row) + 1; // and its comma
    if (bytes + size > maxBytes) {
      if (rows.length > 0) break;
      return ENVELOPE_BYTES + size > maxRequestBytes ? { kind: 'too-large', row } : { kind: 'batch', rows: [row] };
    }
    rows.push(row);
    bytes += size;
  }
  return rows.length === 0 ? { kind: 'empty' } : { kind: 'batch', rows };
}
