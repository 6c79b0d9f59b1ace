/**
 * The page's poke socket (src/backend/poke-socket.ts) against the local stack's Realtime
 * (supabase/local/realtime-connection.ts, which answers as hosted Realtime answers realtime-js:
 * tests/local/realtime-socket.test.ts): the user's own topic and the board joined, another user's
 * refused with Realtime's reason, a push heard as a poke, heartbeats answered, a token of another
 * user closing the channel. Waits for states, never for a time.
 */
import { randomUUID } from 'node:crypto';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PokeSocket, type ChannelStatus } from '../../src/backend/poke-socket.ts';
import { realtimeUrl } from '../../src/backend/realtime-client.ts';
import { dbKinds } from '../support/db.ts';
import { BOARD, until } from '../support/realtime-listener.ts';
import { TEST_ANON_KEY } from '../support/test-keys.ts';
import { startRealtimeStack, type RealtimeStack } from './realtime-stack.ts';
import type { StackUser } from './stack-users.ts';

/** ws's WebSocket, counting the frames it receives (the heartbeats' answers among them). */
class CountingSocket extends WebSocket {
  static received: string[] = [];
  constructor(url: string) {
    super(url);
    this.addEventListener('message', (event) => CountingSocket.received.push(String(event.data)));
  }
}

describe.each(dbKinds)('the poke socket on the local stack (%s)', (kind) => {
  let t: RealtimeStack;
  let alice: StackUser;
  let bob: StackUser;
  beforeAll(async () => {
    t = await startRealtimeStack(kind);
    [alice, bob] = await Promise.all([t.signUp(), t.signUp()]);
  });
  afterAll(() => t.close());

  function socketOf(token: string, heartbeatMs?: number) {
    const socket = new PokeSocket({
      url: realtimeUrl(t.stack.url),
      apiKey: TEST_ANON_KEY,
      WebSocket: CountingSocket as never,
      heartbeatMs,
    });
    void socket.setAuth(token);
    const join = (topic: string) => {
      const heard = { statuses: [] as ChannelStatus[], pokes: 0 };
      socket
        .channel(topic, { config: { private: true } })
        .on('broadcast', { event: 'poke' }, () => (heard.pokes += 1))
        .subscribe((status) => heard.statuses.push(status));
      return heard;
    };
    return { socket, join };
  }

  it('joins the user’s own topic and the board, refuses another user’s, and hears a push as a poke', async () => {
    const { socket, join } = socketOf(alice.token);
    const own = join(`user:${alice.id}`);
    const board = join(BOARD);
    const other = join(`user:${bob.id}`);
    await until(() => own.statuses.length > 0 && board.statuses.length > 0 && other.statuses.length > 0, 'the joins');
    expect(own.statuses).toEqual(['SUBSCRIBED']);
    expect(board.statuses).toEqual(['SUBSCRIBED']);
    expect(other.statuses).toEqual(['CHANNEL_ERROR']);
    const start = new Date(Date.now() + 3_600_000).toISOString();
    await t.push(alice, [
      {
        name: 'event.create',
        args: { id: randomUUID(), title: 'x', starts_at: start, ends_at: start, is_task: false },
      },
    ]);
    await until(() => own.pokes === 1, 'the poke of the push');
    await socket.disconnect();
  });

  it('has its heartbeats answered, and its channel closed by another user’s token', async () => {
    CountingSocket.received = [];
    const { socket, join } = socketOf(alice.token, 20);
    const own = join(`user:${alice.id}`);
    await until(() => own.statuses.length > 0, 'the join');
    const beats = () =>
      CountingSocket.received.filter((frame) => {
        const parsed = JSON.parse(frame) as { topic: string; event: string; payload: { status?: string } };
        return parsed.topic === 'phoenix' && parsed.event === 'phx_reply' && parsed.payload.status === 'ok';
      }).length;
    await until(() => beats() >= 3, 'three heartbeats answered');
    expect(own.statuses).toEqual(['SUBSCRIBED']);
    await socket.setAuth(bob.token);
    await until(() => own.statuses.length > 1, 'the channel closed');
    expect(own.statuses).toEqual(['SUBSCRIBED', 'CLOSED']);
    await socket.disconnect();
  });
});
