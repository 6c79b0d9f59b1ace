/**
 * A local stack on a real port (its Realtime socket needs one) over a fresh test database, with
 * confirmed users signed up through its API and Realtime listeners (tests/support/realtime-listener.ts).
 */
import { randomUUID } from 'node:crypto';
import type { RealtimeClient } from '@supabase/supabase-js';
import { expect } from 'vitest';
import { startStack, type RunningStack } from '../../supabase/local/server.ts';
import type { RealtimeOptions } from '../../supabase/local/realtime-socket.ts';
import { freshDb, type DbKind } from '../support/db.ts';
import { TEST_JWT_SECRET } from '../support/test-keys.ts';
import { BOARD, listen, realtimeClient, until, type Listened } from '../support/realtime-listener.ts';
import { signUpConfirmed, type StackUser } from './stack-users.ts';

export interface RealtimeStack {
  stack: RunningStack;
  signUp(tier?: 'free' | 'pro' | 'team'): Promise<StackUser>;
  push(user: StackUser, mutations: { name: string; args: Record<string, unknown> }[]): Promise<string[]>;
  /** A socket of `user` with its own channel and the voting board joined. */
  device(user: StackUser): Promise<Device>;
  /**
   * Makes a public poll and waits until every device's board heard it: a poke any earlier
   * commit sent them has arrived by then (one relay, one socket each, in commit order).
   */
  fence(...devices: Device[]): Promise<void>;
  close(): Promise<void>;
}

export interface Device {
  client: RealtimeClient;
  own: Listened;
  board: Listened;
}

export async function startRealtimeStack(kind: DbKind, realtime?: RealtimeOptions): Promise<RealtimeStack> {
  const db = await freshDb(kind);
  const stack = await startStack({
    db,
    port: 0,
    jwtSecret: TEST_JWT_SECRET,
    reminderTiming: false,
    autoAnalyze: false,
    realtime,
  });
  const clients: RealtimeClient[] = [];
  const signUp = (tier: 'free' | 'pro' | 'team' = 'free') =>
    signUpConfirmed(fetch, db, { base: stack.url, prefix: 'live', tier });
  const push: RealtimeStack['push'] = async (user, mutations) => {
    const { data, error } = await user.client.rpc('sync_push', {
      p_mutations: mutations.map((m) => ({ id: randomUUID(), ...m })),
    });
    expect(error).toBeNull();
    return (data as { results: { status: string }[] }).results.map((result) => result.status);
  };
  let fencer: StackUser | null = null;
  return {
    stack,
    signUp,
    push,
    async device(user) {
      const client = realtimeClient(stack.url, user.token);
      clients.push(client);
      const [own, board] = await Promise.all([listen(client, `user:${user.id}`), listen(client, BOARD)]);
      expect(own.statuses).toEqual(['SUBSCRIBED']);
      expect(board.statuses).toEqual(['SUBSCRIBED']);
      return { client, own, board };
    },
    async fence(...devices) {
      fencer ??= await signUp();
      const before = devices.map((device) => device.board.pokes);
      const id = randomUUID();
      expect(
        await push(fencer, [{ name: 'poll.create', args: { id, title: `Fence ${id}`, options: ['a', 'b'] } }]),
      ).toEqual(['applied']);
      await until(() => devices.every((device, i) => device.board.pokes > before[i]!), 'the fence poke');
    },
    async close() {
      for (const client of clients) await client.disconnect();
      await stack.close();
      await db.close();
    },
  };
}
