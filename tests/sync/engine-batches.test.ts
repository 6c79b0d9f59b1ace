import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_PUSH_BYTES, TOO_LARGE } from '../../src/sync/batch.ts';
import { createSyncLock } from '../../src/sync/lock.ts';
import { ME, uuid } from '../support/builders.ts';
import { addLink, db, engine, freshEngine, server, statuses } from './engine-helpers.ts';

beforeEach(freshEngine);

describe('batches the server accepts', () => {
  /** Queues mutations directly (the mutators would refuse texts this long). */
  async function queue(count: number, notesBytes = 0): Promise<string[]> {
    const rows = Array.from({ length: count }, () => ({
      id: uuid(),
      name: 'event.create' as const,
      args: { id: uuid(), title: 'E', notes: 'x'.repeat(notesBytes), is_task: true, starts_at: null, ends_at: null },
      created_at: new Date().toISOString(),
      attempts: 0,
      status: 'pending' as const,
    }));
    await db.outbox.bulkAdd(rows);
    return rows.map((row) => row.id);
  }
  const bodyBytes = (batch: unknown[]) => new TextEncoder().encode(JSON.stringify({ p_mutations: batch })).byteLength;

  it('sends at most 500 mutations per push, whatever the batch size asks', async () => {
    await queue(620);
    expect(await engine({ batchSize: 1000 }).sync()).toBe('synced');
    expect(server.refused).toEqual([]);
    expect(server.pushed.map((batch) => batch.length)).toEqual([500, 120]);
  });

  it('sends ahead a whole batch of the pending entries after the one sent, passing over a failed one', async () => {
    const [a, b] = await queue(2);
    const [failed] = await queue(1);
    await db.outbox.where('id').equals(failed!).modify({ status: 'failed', attempts: 3, last_error: 'Refused' });
    const [c, d] = await queue(2);
    expect(await engine({ batchSize: 2 }).sync()).toBe('error');
    expect(server.pushed.map((batch) => batch.map((m) => m.id))).toEqual([
      [a, b],
      [c, d],
    ]);
    expect(await db.outbox.toArray()).toEqual([expect.objectContaining({ id: failed, status: 'failed' })]);
  });

  it('cuts pushes at 512 KiB of JSON, in queue order', async () => {
    const ids = await queue(5, 200_000);
    expect(await engine().sync()).toBe('synced');
    expect(server.refused).toEqual([]);
    expect(server.pushed.map((batch) => batch.length)).toEqual([2, 2, 1]);
    for (const batch of server.pushed) expect(bodyBytes(batch)).toBeLessThanOrEqual(MAX_PUSH_BYTES);
    expect(server.pushed.flat().map((m) => m.id)).toEqual(ids);
  });

  it('sends a mutation over 512 KiB alone when a request can still carry it', async () => {
    await queue(1);
    await queue(1, 700_000);
    await queue(1);
    expect(await engine().sync()).toBe('synced');
    expect(server.pushed.map((batch) => batch.length)).toEqual([1, 1, 1]);
    expect(await db.outbox.count()).toBe(0);
  });

  it('fails a mutation no request could carry at once, without sending it or wedging the queue', async () => {
    const [before] = await queue(1);
    const [huge] = await queue(1, 1_100_000);
    const [after] = await queue(1);
    expect(await engine().sync()).toBe('error');
    expect(server.pushed.flat().map((m) => m.id)).toEqual([before, after]);
    expect(server.refused).toEqual([]);
    expect(await db.outbox.toArray()).toEqual([
      expect.objectContaining({ id: huge, status: 'failed', last_error: TOO_LARGE }),
    ]);
    expect(statuses.at(-1)).toMatchObject({ state: 'error', failed: 1, message: '1 change could not be saved.' });
    const [later] = await queue(1);
    await engine().sync();
    expect(server.pushed.flat().map((m) => m.id)).toContain(later);
  });

  it('fails a single mutation the server answers 413 at once (a smaller body limit on the way)', async () => {
    server.maxBodyBytes = 100_000;
    const [big] = await queue(1, 200_000);
    const [small] = await queue(1);
    expect(await engine().sync()).toBe('error');
    expect(server.refused.map((batch) => batch.map((m) => m.id))).toEqual([[big, small], [big]]);
    expect(server.pushed.flat().map((m) => m.id)).toEqual([small]);
    expect(await db.outbox.toArray()).toEqual([
      expect.objectContaining({ id: big, status: 'failed', last_error: TOO_LARGE }),
    ]);
  });
});

describe('one drainer at a time', () => {
  it('never runs two pushes or pulls at once across engines sharing the lock', async () => {
    server.latencyMs = 5;
    const lock = createSyncLock(ME, undefined);
    const a = engine({ lock });
    const b = engine({ lock });
    for (let i = 0; i < 3; i += 1) await addLink(`L${i}`);
    await Promise.all([a.sync(), b.sync(), a.sync(), b.sync()]);
    expect(server.maxInFlight).toBe(1);
    expect(server.pushed.flat().length).toBe(3);
  });
});

describe('the status it reports', () => {
  it('never says Synced between a round and the one a change made during it asks for', async () => {
    server.latencyMs = 5;
    const sync = engine();
    statuses.length = 0;
    const first = sync.sync();
    // A change queued while the round runs (an import's end): its sync joins and asks for another.
    await addLink('During');
    const joined = sync.sync();
    expect(await first).toBe('synced');
    expect(await joined).toBe('synced');
    const states = statuses.map((status) => status.state);
    expect(states.at(-1)).toBe('synced');
    expect(states.slice(0, -1).every((state) => state === 'syncing')).toBe(true);
    expect(statuses.at(-1)).toMatchObject({ pending: 0 });
    expect(server.pushed.flat().map((m) => m.args.title)).toEqual(['During']);
  });

  it('says Syncing while another engine holds the lock (the service worker pushing these changes)', async () => {
    const lock = createSyncLock(ME, undefined);
    const transport = server.transport();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let pushing = false;
    const worker = engine({
      lock,
      onStatus: () => undefined,
      transport: {
        ...transport,
        push: async (mutations) => {
          pushing = true;
          await held;
          return transport.push(mutations);
        },
      },
    });
    const page = engine({ lock });
    await addLink('Queued');
    statuses.length = 0;
    const draining = worker.sync();
    await vi.waitFor(() => expect(pushing).toBe(true));
    const waiting = page.sync();
    // The worker's push is on its way; the page's engine waits for the lock, and says so at once.
    expect(statuses.map((status) => status.state)).toEqual(['syncing']);
    release();
    await Promise.all([draining, waiting]);
    expect(statuses.map((status) => status.state)).toEqual(['syncing', 'synced']);
    expect(statuses.at(-1)).toMatchObject({ pending: 0 });
  });
});
