/**
 * The local stack's Realtime socket (supabase/local/realtime-socket.ts) on a port of its own, over
 * the database of an in-process stack (tests/support/sync-harness.ts): the app's poke client and
 * supabase-js's RealtimeClient reach it at `base`, while the API stays in-process.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Db } from '../../supabase/local/db.ts';
import { startRealtime, type RealtimeOptions, type RealtimeServer } from '../../supabase/local/realtime-socket.ts';
import { TEST_JWT_SECRET } from './test-keys.ts';

export interface RealtimeBeside {
  base: string;
  realtime: RealtimeServer;
  close(): Promise<void>;
}

export async function startRealtimeBeside(db: Db, options?: RealtimeOptions): Promise<RealtimeBeside> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const realtime = await startRealtime(server, { db, jwtSecret: TEST_JWT_SECRET }, options);
  return {
    base,
    realtime,
    async close() {
      await realtime.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
