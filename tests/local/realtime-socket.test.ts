/**
 * The local stack's Realtime socket (supabase/local/realtime-socket.ts) as supabase-js's
 * RealtimeClient meets it: private channels joined under the database's policy on
 * realtime.messages, Realtime's own error reasons for a refused join, access-token refresh and
 * expiry, the caps on sockets and channels, and frames that are no message closing the socket
 * cleanly, never crashing the stack.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretKey } from '../../supabase/local/keys.ts';
import { dbKinds } from '../support/db.ts';
import { BOARD, listen, realtimeClient, until } from '../support/realtime-listener.ts';
import { TEST_ANON_KEY, TEST_JWT_SECRET } from '../support/test-keys.ts';
import { startRealtimeStack, type RealtimeStack } from './realtime-stack.ts';
import type { StackUser } from './stack-users.ts';

const sign = (claims: Record<string, unknown>, exp: number | string, secret = TEST_JWT_SECRET) =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(exp).sign(secretKey(secret));

/** A raw socket to the stack: frames in, frames out, and how it closed. */
async function rawSocket(base: string, query = `apikey=${TEST_ANON_KEY}&vsn=1.0.0`) {
  const url = new URL(`/realtime/v1/websocket?${query}`, base);
  url.protocol = 'ws:';
  const socket = new WebSocket(url);
  const frames: unknown[] = [];
  const closed: { code?: number; status?: number } = {};
  socket.on('message', (data) => frames.push(JSON.parse(String(data))));
  socket.on('close', (code) => (closed.code = code));
  socket.on('unexpected-response', (_req, res) => {
    closed.status = res.statusCode;
    closed.code = -1;
  });
  socket.on('error', () => undefined);
  await until(
    () => socket.readyState === WebSocket.OPEN || closed.code !== undefined,
    'the socket to open or be refused',
  );
  return { socket, frames, closed };
}

describe.each(dbKinds)('the Realtime socket on %s', (kind) => {
  let t: RealtimeStack;
  let alice: StackUser;
  let bob: StackUser;
  beforeAll(async () => {
    t = await startRealtimeStack(kind, {
      limits: { connectionsPerUser: 2, connections: 40, channelsPerConnection: 2, maxFrameBytes: 4096 },
    });
    [alice, bob] = await Promise.all([t.signUp(), t.signUp()]);
  });
  afterAll(() => t.close());

  it('joins a user’s own topic and the board; refuses another user’s topic, any other topic and a public channel', async () => {
    const client = realtimeClient(t.stack.url, alice.token);
    const [own, board] = await Promise.all([listen(client, `user:${alice.id}`), listen(client, BOARD)]);
    expect(own.statuses).toEqual(['SUBSCRIBED']);
    expect(board.statuses).toEqual(['SUBSCRIBED']);
    await client.disconnect();
    const refused = realtimeClient(t.stack.url, alice.token);
    const [other, elsewhere] = await Promise.all([listen(refused, `user:${bob.id}`), listen(refused, 'public:other')]);
    expect(other.statuses).toEqual([
      `CHANNEL_ERROR: Unauthorized: You do not have permissions to read from this Channel topic: user:${bob.id}`,
    ]);
    expect(elsewhere.statuses).toEqual([
      'CHANNEL_ERROR: Unauthorized: You do not have permissions to read from this Channel topic: public:other',
    ]);
    const open = refused.channel(`user:${alice.id}-public`);
    const statuses: string[] = [];
    open.subscribe((status, error) => statuses.push(`${status}: ${error?.message}`));
    await until(() => statuses.length > 0, 'the public channel refused');
    expect(statuses).toEqual(['CHANNEL_ERROR: PrivateOnly: This project only allows private channels']);
    await refused.disconnect();
  });

  it('refuses a forged, expired, incomplete or missing token, and the anon key', async () => {
    const cases: [string, string | undefined, string][] = [
      [
        'forged',
        await sign({ role: 'authenticated', sub: alice.id }, '1h', 'x'.repeat(40)),
        'JwtSignatureError: Failed to validate JWT signature',
      ],
      [
        'expired',
        await sign({ role: 'authenticated', sub: alice.id }, Math.floor(Date.now() / 1000) - 10),
        'InvalidJWTToken: Token has expired',
      ],
      [
        'without a role',
        await sign({ sub: alice.id }, '1h'),
        'InvalidJWTToken: Fields `role` and `exp` are required in JWT',
      ],
      ['not a JWT', 'not-a-jwt\u0000\ud800', 'MalformedJWT: The token provided is not a valid JWT'],
      [
        'the anon key',
        TEST_ANON_KEY,
        `Unauthorized: You do not have permissions to read from this Channel topic: user:${alice.id}`,
      ],
      [
        'none',
        undefined,
        `Unauthorized: You do not have permissions to read from this Channel topic: user:${alice.id}`,
      ],
    ];
    for (const [, token, reason] of cases) {
      const client = realtimeClient(t.stack.url, token);
      const own = await listen(client, `user:${alice.id}`);
      expect(own.statuses).toHaveLength(1);
      expect(own.statuses[0]).toContain(`CHANNEL_ERROR: ${reason}`);
      await client.disconnect();
    }
  });

  it('keeps the channel on a refreshed token of its user, and closes it for another user’s or an expired one', async () => {
    const client = realtimeClient(t.stack.url, alice.token);
    const own = await listen(client, `user:${alice.id}`);
    expect(own.statuses).toEqual(['SUBSCRIBED']);
    const fresh = await sign({ role: 'authenticated', sub: alice.id, aud: 'authenticated' }, '2h');
    await client.setAuth(fresh);
    // Still joined and still poked with the new token.
    const start = new Date(Date.now() + 3_600_000).toISOString();
    await t.push(alice, [
      {
        name: 'event.create',
        args: { id: randomUUID(), title: 'x', starts_at: start, ends_at: start, is_task: false },
      },
    ]);
    await until(() => own.pokes === 1, 'the poke after the refresh');
    // Bob's token on Alice's channel: Realtime closes it with a system error.
    await client.setAuth(bob.token);
    await until(() => own.statuses.includes('CLOSED'), 'the channel closed');
    expect(own.system).toEqual([
      expect.objectContaining({
        status: 'error',
        message: `You no longer have permission to read from this Channel topic: user:${alice.id}`,
      }),
    ]);
    await client.disconnect();

    const again = realtimeClient(t.stack.url, alice.token);
    const second = await listen(again, `user:${alice.id}`);
    await again.setAuth(await sign({ role: 'authenticated', sub: alice.id }, Math.floor(Date.now() / 1000) - 5));
    await until(() => second.statuses.includes('CLOSED'), 'the channel closed for an expired token');
    expect(second.system[0]?.message).toMatch(/^Token has expired \d+ seconds ago$/);
    await again.disconnect();
  });

  it('closes a channel when its token expires', async () => {
    const client = realtimeClient(
      t.stack.url,
      await sign({ role: 'authenticated', sub: alice.id }, Math.floor(Date.now() / 1000) + 2),
    );
    const own = await listen(client, `user:${alice.id}`);
    expect(own.statuses).toEqual(['SUBSCRIBED']);
    await until(() => own.statuses.includes('CLOSED'), 'the channel closed at the token’s expiry');
    expect(own.system[0]).toMatchObject({ status: 'error', message: expect.stringMatching(/^Token has expired/) });
    await client.disconnect();
  });

  it('refuses a user’s sockets and a socket’s channels beyond their caps, with Realtime’s reasons', async () => {
    const user = await t.signUp();
    const clients = [1, 2, 3].map(() => realtimeClient(t.stack.url, user.token));
    try {
      // The three connect at once: which one comes third is the network's order, not the array's.
      const joined = await Promise.all(clients.map((client) => listen(client, `user:${user.id}`)));
      const statuses = joined.map((j) => j.statuses[0]);
      expect([...statuses].sort()).toEqual([
        'CHANNEL_ERROR: ConnectionRateLimitReached: Too many connected users',
        'SUBSCRIBED',
        'SUBSCRIBED',
      ]);
      // A socket of the user closes: another may join.
      await clients[statuses.indexOf('SUBSCRIBED')]!.disconnect();
      await until(() => t.stack.realtime.size <= 2, 'the socket closed on the stack');
      const later = realtimeClient(t.stack.url, user.token);
      clients.push(later);
      expect((await listen(later, `user:${user.id}`)).statuses).toEqual(['SUBSCRIBED']);
    } finally {
      // A failed expectation must not leave sockets open for the next test's count of the stack's sockets.
      for (const client of clients) await client.disconnect();
    }

    const many = realtimeClient(t.stack.url, bob.token);
    const channels = await Promise.all(
      [`user:${bob.id}`, BOARD, `user:${alice.id}`].map((topic) => listen(many, topic)),
    );
    expect(
      channels.filter((c) => c.statuses[0] === 'CHANNEL_ERROR: ChannelRateLimitReached: Too many channels'),
    ).toHaveLength(1);
    await many.disconnect();
  });

  it('refuses a socket without a valid API key or with an unknown vsn before the upgrade', async () => {
    // A plain request is no socket: 426, not the app's page.
    const plain = await fetch(`${t.stack.url}/realtime/v1/websocket?apikey=${TEST_ANON_KEY}&vsn=1.0.0`);
    expect(plain.status).toBe(426);
    expect((await rawSocket(t.stack.url, 'vsn=1.0.0')).closed).toEqual({ code: -1, status: 401 });
    expect((await rawSocket(t.stack.url, `apikey=${alice.token}&vsn=1.0.0`)).closed).toEqual({ code: -1, status: 401 });
    expect((await rawSocket(t.stack.url, `apikey=${TEST_ANON_KEY}&vsn=9.9.9`)).closed).toEqual({
      code: -1,
      status: 400,
    });
  });

  it('refuses sockets beyond the stack’s cap with 429, and takes one again once another closes', async () => {
    const held = [];
    while (t.stack.realtime.size < 40) held.push(await rawSocket(t.stack.url));
    expect((await rawSocket(t.stack.url)).closed).toEqual({ code: -1, status: 429 });
    held[0]!.socket.close();
    await until(() => t.stack.realtime.size < 40, 'a socket closed on the stack');
    const again = await rawSocket(t.stack.url);
    expect(again.socket.readyState).toBe(WebSocket.OPEN);
    for (const raw of [...held, again]) raw.socket.close();
    await until(() => t.stack.realtime.size === 0, 'every socket closed');
  });

  it('closes a socket on a frame that is no message, answers unknown topics, and keeps serving', async () => {
    const garbage: [string | Buffer, number][] = [
      ['not json', 1007],
      ['{"topic":"phoenix","event":"heartbeat"}', 1007],
      ['[null,"1","phoenix","heartbeat",{}]', 1007],
      [JSON.stringify({ topic: 'x'.repeat(300), event: 'phx_join', payload: {}, ref: '1' }), 1007],
      [Buffer.from([3, 0, 0, 0]), 1003],
      [JSON.stringify({ topic: 'phoenix', event: 'heartbeat', payload: { pad: 'x'.repeat(5000) }, ref: '1' }), 1009],
    ];
    for (const [frame, code] of garbage) {
      const raw = await rawSocket(t.stack.url);
      raw.socket.send(frame);
      await until(() => raw.closed.code !== undefined, 'the socket closed');
      expect(raw.closed.code).toBe(code);
    }
    const raw = await rawSocket(t.stack.url);
    const send = (message: Record<string, unknown>) => raw.socket.send(JSON.stringify(message));
    send({ topic: 'realtime:nowhere', event: 'broadcast', payload: {}, ref: '1', join_ref: null });
    send({
      topic: 'realtime:public:voting\u0000\ud800',
      event: 'phx_join',
      payload: { config: { private: true }, access_token: alice.token },
      ref: '2',
      join_ref: '2',
    });
    send({ topic: 'realtime:', event: 'phx_join', payload: { config: { private: true } }, ref: '3', join_ref: '3' });
    send({ topic: 'phoenix', event: 'heartbeat', payload: {}, ref: '4', join_ref: null });
    await until(() => raw.frames.length === 4, 'four replies');
    expect(raw.frames).toEqual([
      {
        topic: 'realtime:nowhere',
        event: 'phx_reply',
        payload: { status: 'error', response: { reason: 'unmatched topic' } },
        ref: '1',
        join_ref: null,
      },
      {
        topic: 'realtime:public:voting\u0000\ud800',
        event: 'phx_reply',
        payload: {
          status: 'error',
          response: {
            reason:
              'Unauthorized: You do not have permissions to read from this Channel topic: public:voting\u0000\ud800',
          },
        },
        ref: '2',
        join_ref: '2',
      },
      {
        topic: 'realtime:',
        event: 'phx_reply',
        payload: { status: 'error', response: { reason: 'TopicNameRequired: You must provide a topic name' } },
        ref: '3',
        join_ref: '3',
      },
      { topic: 'phoenix', event: 'phx_reply', payload: { status: 'ok', response: {} }, ref: '4', join_ref: null },
    ]);
    raw.socket.close();
    // The stack still serves a client after all that.
    const client = realtimeClient(t.stack.url, alice.token);
    expect((await listen(client, `user:${alice.id}`)).statuses).toEqual(['SUBSCRIBED']);
    await client.disconnect();
  });

  it('speaks vsn 2.0.0 as realtime-js does by default: join and poke', async () => {
    const client = realtimeClient(t.stack.url, bob.token, '2.0.0');
    const own = await listen(client, `user:${bob.id}`);
    expect(own.statuses).toEqual(['SUBSCRIBED']);
    const start = new Date(Date.now() + 3_600_000).toISOString();
    await t.push(bob, [
      {
        name: 'event.create',
        args: { id: randomUUID(), title: 'y', starts_at: start, ends_at: start, is_task: false },
      },
    ]);
    await until(() => own.pokes === 1, 'the poke over vsn 2.0.0');
    await client.disconnect();
  });
});
