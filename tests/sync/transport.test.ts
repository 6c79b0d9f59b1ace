import { expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { classifyRpcError, createSupabaseTransport, SyncTransportError } from '../../src/backend/sync-transport.ts';

it('classifies rpc failures', () => {
  expect(classifyRpcError(0, { message: 'TypeError: fetch failed' }).kind).toBe('network');
  expect(classifyRpcError(401, { message: 'JWT expired' }).kind).toBe('auth');
  for (const status of [502, 503, 504]) expect(classifyRpcError(status, null).kind).toBe('unavailable');
  expect(classifyRpcError(400, { message: 'bad' })).toMatchObject({ kind: 'server', message: 'bad', status: 400 });
  expect(classifyRpcError(500, null).kind).toBe('server');
  // The database's connection lost (a restart): retried, never counted against the changes.
  for (const code of ['57P01', '57P02', '57P03', '08006', 'PGRST000', 'PGRST001']) {
    expect(classifyRpcError(500, { message: 'terminating connection', code }).kind, code).toBe('unavailable');
  }
  expect(classifyRpcError(500, { message: 'boom', code: 'XX000' }).kind).toBe('server');
  expect(classifyRpcError(400, { message: 'bad', code: '08P01' }).kind).toBe('server');
});

it('calls sync_push and sync_pull with the contract args', async () => {
  const calls: unknown[] = [];
  // A stand-in client with only rpc, recording what the transport asks.
  const client = {
    rpc: async (fn: string, args: unknown) => {
      calls.push([fn, args]);
      if (fn === 'sync_pull') return { data: null, error: { message: 'JWT expired' }, status: 401 };
      return { data: { results: [] }, error: null, status: 200 };
    },
  } as unknown as SupabaseClient;
  const transport = createSupabaseTransport(client);
  expect(await transport.push([{ id: 'm', name: 'link.delete', args: { id: 'x' } }])).toEqual({ results: [] });
  await expect(transport.pull(null, 1000)).rejects.toMatchObject({ kind: 'auth' });
  expect(calls).toEqual([
    ['sync_push', { p_mutations: [{ id: 'm', name: 'link.delete', args: { id: 'x' } }] }],
    ['sync_pull', { p_cursor: null, p_limit: 1000 }],
  ]);
  // A stand-in client whose rpc fails as fetch does offline.
  const throwing = createSupabaseTransport({
    rpc: async () => {
      throw new TypeError('Failed to fetch');
    },
  } as unknown as SupabaseClient);
  await expect(throwing.pull('1', 10)).rejects.toBeInstanceOf(SyncTransportError);
});

it("learns the server's clock from every answer (a device 3 days ahead)", async () => {
  const { clockOffsetMs, learnServerTime } = await import('../../src/backend/server-clock.ts');
  const threeDays = 3 * 86_400_000;
  const client = {
    rpc: async () => ({ data: { results: [], server_time_ms: Date.now() - threeDays }, error: null, status: 200 }),
  } as unknown as SupabaseClient;
  await createSupabaseTransport(client).push([]);
  expect(Math.abs(clockOffsetMs() + threeDays)).toBeLessThan(1000);
  // Back to the device's own clock for the tests after this one.
  learnServerTime(Date.now(), Date.now(), Date.now());
  expect(clockOffsetMs()).toBe(0);
});
