/**
 * The push half of a sync (docs/sync-protocol.md): the outbox sent in queue order, in batches the server
 * accepts (batch.ts), each answer written as it comes (apply-push.ts), with the next batch
 * already on its way while one answer is written.
 */
import type { LinkboardDb } from '../data/db.ts';
import type { MutationContext } from '../data/mutation-context.ts';
import { entryProblem, upgradeOutbox, type OutboxRow } from '../data/outbox.ts';
import { SyncTransportError, checkPushAnswer, type PushResult, type WireMutation } from '../backend/sync-transport.ts';
import { GENERIC_REJECTION, applyPushAnswer, checkAnswerRows } from './apply-push.ts';
import { MAX_PUSH_BYTES, MAX_PUSH_COUNT, MAX_REQUEST_BYTES, TOO_LARGE, planBatch, wireMutation } from './batch.ts';

export interface PushQueueOptions {
  db: LinkboardDb;
  /** One sync_push call (the engine's transport, with its session refresh on a 401). */
  push(mutations: WireMutation[]): Promise<unknown>;
  context: () => MutationContext;
  /** Mutations per push (default and at most 500: sync_push refuses more). */
  batchSize?: number;
  /** Bytes of JSON per push of several mutations (default 512 KiB). */
  maxPushBytes?: number;
  /** The API's body limit (default 1 MiB): a larger mutation is failed without being sent. */
  maxRequestBytes?: number;
  /** Failed attempts (not network) after which a mutation is marked 'failed'. */
  maxAttempts?: number;
  onRejected?: (message: string, result: PushResult) => void;
}

/** A push sent and not yet answered: its entries, and the answer to come. */
interface InFlightPush {
  batch: OutboxRow[];
  answer: Promise<unknown>;
}

/** Pushes every pending outbox entry; throws what the caller reports (offline, auth, server). */
export function pushQueue(options: PushQueueOptions): Promise<void> {
  return new PushQueue(options).run();
}

class PushQueue {
  constructor(private readonly options: PushQueueOptions) {}

  /**
   * Pushes the queue in batches, in queue order. While one answer is written, the next batch is
   * already on its way (the server takes a user's pushes one after the other, in the order sent):
   * the local write and the server's work overlap instead of taking turns.
   */
  async run(): Promise<void> {
    const { db } = this.options;
    let batchSize = Math.min(this.options.batchSize ?? MAX_PUSH_COUNT, MAX_PUSH_COUNT);
    let inFlight: InFlightPush | null = null;
    for (;;) {
      let current = inFlight;
      inFlight = null;
      if (!current) {
        // The status index holds each status's entries in key (queue) order.
        const queue = await db.outbox.where('status').equals('pending').limit(batchSize).toArray();
        // Entries are checked as read back (a retried damaged one, a write by another app
        // version): an older one is upgraded in place, one that cannot be sent is failed.
        if (queue.some((row) => entryProblem(row) !== null)) {
          await upgradeOutbox(db);
          continue;
        }
        const plan = this.plan(queue, batchSize);
        if (plan.kind === 'empty') return;
        if (plan.kind === 'too-large') {
          // No push could ever carry it: out of the queue at once, shown as failed.
          await this.markFailed(plan.row, TOO_LARGE);
          continue;
        }
        current = this.send(plan.rows);
      }
      const batch = current.batch;
      let answer;
      try {
        answer = checkPushAnswer(await current.answer);
        // An invalid answer counts as a failed attempt of what it answers (so it cannot wedge the queue).
        checkAnswerRows(answer);
      } catch (error) {
        if (!(error instanceof SyncTransportError) || error.kind !== 'server') throw error;
        if (batch.length > 1) {
          // Find the culprit: go on one mutation at a time, so attempts count against it only.
          batchSize = 1;
          continue;
        }
        const head = batch[0] as OutboxRow;
        if (error.status === 413) {
          // Too large for the server (a proxy with a smaller body limit): it never will be.
          await this.markFailed(head, TOO_LARGE);
          continue;
        }
        if (await this.markAttempt(head, error.message)) continue;
        throw error;
      }
      // One mutation at a time (finding a culprit) is never overlapped: its attempts must count alone.
      if (batchSize > 1) inFlight = await this.sendNext(batch, batchSize);
      const outcome = await applyPushAnswer(db, batch, answer, this.options.context());
      for (const result of outcome.rejected) {
        this.options.onRejected?.(result.message || GENERIC_REJECTION, result);
      }
      if (outcome.settled === 0) throw new SyncTransportError('server', 'The server answered none of the changes.');
    }
  }

  private plan(queue: OutboxRow[], batchSize: number) {
    const maxBytes = this.options.maxPushBytes ?? MAX_PUSH_BYTES;
    return planBatch(queue, batchSize, maxBytes, this.options.maxRequestBytes ?? MAX_REQUEST_BYTES);
  }

  private send(batch: OutboxRow[]): InFlightPush {
    const answer = this.options.push(batch.map(wireMutation));
    // Awaited by the loop; a failure while the batch before is written is not unhandled.
    answer.catch(() => undefined);
    return { batch, answer };
  }

  /**
   * Sends the batch after `sent` (its answer not yet written, so its entries are still queued):
   * the pending entries after its last one. Null when there are none, or when they need the
   * loop's own handling (an entry to upgrade, one too large): the loop reads them again once
   * `sent` is written.
   */
  private async sendNext(sent: readonly OutboxRow[], batchSize: number): Promise<InFlightPush | null> {
    const last = (sent[sent.length - 1] as OutboxRow).seq as number;
    // Every pending entry up to `last` is in `sent` (it was the queue's head): the next batch is
    // the pending entries after it, read from the queue's key past `last` (a failed entry there is
    // passed over). Not through the status index from its start: the entries answered before lie
    // there as deleted index entries, which a read steps over (a round of 5,000 took longer each
    // time, up to 1.1 s).
    const queue: OutboxRow[] = [];
    for (let after = last; queue.length < batchSize;) {
      const want = batchSize - queue.length;
      const rows = await this.options.db.outbox.where(':id').above(after).limit(want).toArray();
      queue.push(...rows.filter((row) => row.status === 'pending'));
      if (rows.length < want) break;
      after = (rows[rows.length - 1] as OutboxRow).seq as number;
    }
    if (queue.some((row) => entryProblem(row) !== null)) return null;
    const plan = this.plan(queue, batchSize);
    return plan.kind === 'batch' ? this.send(plan.rows) : null;
  }

  /** Counts a failed attempt; true when the mutation is now 'failed' (out of the queue). */
  private async markAttempt(row: OutboxRow, message: string): Promise<boolean> {
    const max = this.options.maxAttempts ?? 3;
    const attempts = row.attempts + 1;
    const status = attempts >= max ? 'failed' : 'pending';
    await this.options.db.outbox.where('id').equals(row.id).modify({ attempts, status, last_error: message });
    return status === 'failed';
  }

  /** Takes a mutation out of the queue as failed (the user retries or discards it). */
  private async markFailed(row: OutboxRow, message: string): Promise<void> {
    const attempts = Math.max(row.attempts + 1, this.options.maxAttempts ?? 3);
    await this.options.db.outbox.where('id').equals(row.id).modify({ attempts, status: 'failed', last_error: message });
  }
}
