/**
 * The poke's Realtime socket (src/backend/poke-socket.ts) frame by frame, against a scripted
 * WebSocket: what it sends (the join as realtime-js sends it, heartbeats, access tokens, leaves)
 * and how each answer Realtime may give is reported, once. Its meeting with the local stack's
 * Realtime is tests/local/poke-socket-stack.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { PokeSocket, type ChannelStatus, type PokeChannel } from '../../src/backend/poke-socket.ts';

interface Sent {
  join_ref: string | null;
  ref: string;
  topic: string;
  event: string;
  payload: Record<string, unknown>;
}

/** A WebSocket the test drives: opened, answered and closed by hand. */
class ScriptedSocket {
  static made: ScriptedSocket[] = [];
  readyState = 0;
  onopen: ((event: unknown) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  readonly sent: Sent[] = [];
  closedWith: { code?: number; reason?: string } | null = null;

  constructor(readonly url: string) {
    ScriptedSocket.made.push(this);
  }

  send(data: string): void {
    this.sent.push(JSON.parse(data) as Sent);
  }

  close(code?: number, reason?: string): void {
    this.closedWith = { code, reason };
    this.readyState = 3;
  }

  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }

  drop(): void {
    this.readyState = 3;
    this.onclose?.({});
  }

  receive(frame: unknown): void {
    this.onmessage?.({ data: typeof frame === 'string' ? frame : JSON.stringify(frame) });
  }

  /** The last frame sent with this event. */
  last(event: string): Sent {
    const found = this.sent.filter((frame) => frame.event === event).at(-1);
    if (!found) throw new Error(`no ${event} sent`);
    return found;
  }

  reply(to: Sent, status: 'ok' | 'error', response: Record<string, unknown> = {}): void {
    this.receive({
      join_ref: to.join_ref,
      ref: to.ref,
      topic: to.topic,
      event: 'phx_reply',
      payload: { status, response },
    });
  }
}

/** Timers fired by hand, in order of their due time. */
class ManualTimers {
  private now = 0;
  private queue: { at: number; callback: () => void; id: number }[] = [];
  private lastId = 0;
  setTimeout = (callback: () => void, ms: number): unknown => {
    this.lastId += 1;
    this.queue.push({ at: this.now + ms, callback, id: this.lastId });
    return this.lastId;
  };
  clearTimeout = (handle: unknown): void => {
    this.queue = this.queue.filter((timer) => timer.id !== handle);
  };
  advance(ms: number): void {
    const until = this.now + ms;
    for (;;) {
      const next = [...this.queue].sort((a, b) => a.at - b.at)[0];
      if (!next || next.at > until) break;
      this.queue = this.queue.filter((timer) => timer !== next);
      this.now = next.at;
      next.callback();
    }
    this.now = until;
  }
}

function setup() {
  ScriptedSocket.made = [];
  const timers = new ManualTimers();
  const socket = new PokeSocket({
    url: 'wss://project.example/realtime/v1',
    apiKey: 'anon key',
    WebSocket: ScriptedSocket,
    timers,
  });
  const join = (topic: string) => {
    const statuses: ChannelStatus[] = [];
    let pokes = 0;
    const channel: PokeChannel = socket
      .channel(topic, { config: { private: true } })
      .on('broadcast', { event: 'poke' }, () => (pokes += 1))
      .subscribe((status) => statuses.push(status));
    return { channel, statuses, pokes: () => pokes };
  };
  const ws = () => {
    const made = ScriptedSocket.made.at(-1);
    if (!made) throw new Error('no socket made');
    return made;
  };
  return { socket, timers, join, ws };
}

describe('the poke socket', () => {
  it('joins a private channel as realtime-js does, with the token, once the socket opens', async () => {
    const { socket, join, ws } = setup();
    await socket.setAuth('token-1');
    const own = join('user:u1');
    expect(ws().url).toBe('wss://project.example/realtime/v1/websocket?apikey=anon%20key&vsn=1.0.0');
    expect(ws().sent).toEqual([]);
    ws().open();
    const sent = ws().last('phx_join');
    expect(sent).toEqual({
      join_ref: sent.ref,
      ref: sent.ref,
      topic: 'realtime:user:u1',
      event: 'phx_join',
      payload: {
        config: {
          broadcast: { ack: false, self: false },
          presence: { key: '', enabled: false },
          postgres_changes: [],
          private: true,
        },
        access_token: 'token-1',
      },
    });
    expect(own.statuses).toEqual([]);
    ws().reply(sent, 'ok', { postgres_changes: [] });
    expect(own.statuses).toEqual(['SUBSCRIBED']);
  });

  it('hears its own event on its own topic once joined, nothing else', () => {
    const { join, ws } = setup();
    const own = join('user:u1');
    ws().open();
    const joinFrame = ws().last('phx_join');
    const poke = (topic: string, event: string, joinRef: string | null = joinFrame.ref) =>
      ws().receive({ join_ref: joinRef, ref: null, topic, event: 'broadcast', payload: { type: 'broadcast', event } });
    poke('realtime:user:u1', 'poke');
    expect(own.pokes()).toBe(0);
    ws().reply(joinFrame, 'ok');
    poke('realtime:user:u1', 'poke');
    poke('realtime:user:u1', 'other');
    poke('realtime:user:u2', 'poke');
    poke('realtime:user:u1', 'poke', 'an earlier join');
    expect(own.pokes()).toBe(1);
  });

  it('reports a refused join, an error and a close by the server once each, and ignores what follows', () => {
    const { join, ws } = setup();
    const refused = join('user:other');
    const errored = join('user:u1');
    const closed = join('public:voting');
    ws().open();
    const [refusedJoin, erroredJoin, closedJoin] = ws().sent.filter((frame) => frame.event === 'phx_join');
    ws().reply(refusedJoin!, 'error', {
      reason: 'Unauthorized: You do not have permissions to read from this Channel topic',
    });
    ws().reply(refusedJoin!, 'ok');
    ws().reply(erroredJoin!, 'ok');
    ws().reply(closedJoin!, 'ok');
    const frame = (join: Sent, event: string) =>
      ws().receive({ join_ref: join.ref, ref: null, topic: join.topic, event, payload: {} });
    frame(erroredJoin!, 'phx_error');
    frame(erroredJoin!, 'phx_error');
    frame(closedJoin!, 'system');
    frame(closedJoin!, 'phx_close');
    frame(closedJoin!, 'phx_close');
    expect(refused.statuses).toEqual(['CHANNEL_ERROR']);
    expect(errored.statuses).toEqual(['SUBSCRIBED', 'CHANNEL_ERROR']);
    expect(closed.statuses).toEqual(['SUBSCRIBED', 'CLOSED']);
  });

  it('times a join out after 10 s without an answer', () => {
    const { join, ws, timers } = setup();
    const own = join('user:u1');
    timers.advance(9_999);
    expect(own.statuses).toEqual([]);
    timers.advance(1);
    expect(own.statuses).toEqual(['TIMED_OUT']);
    // The answer that comes after is not this channel's any more.
    ws().open();
    expect(ws().sent.filter((frame) => frame.event === 'phx_join')).toEqual([]);
  });

  it('errors every channel when the socket drops, and opens a new one for the next join', () => {
    const { socket, join, ws } = setup();
    const own = join('user:u1');
    const board = join('public:voting');
    const first = ws();
    first.open();
    for (const sent of first.sent) first.reply(sent, 'ok');
    first.drop();
    expect(own.statuses).toEqual(['SUBSCRIBED', 'CHANNEL_ERROR']);
    expect(board.statuses).toEqual(['SUBSCRIBED', 'CHANNEL_ERROR']);
    void socket.removeChannel(own.channel);
    void socket.removeChannel(board.channel);
    const again = join('user:u1');
    expect(ws()).not.toBe(first);
    ws().open();
    ws().reply(ws().last('phx_join'), 'ok');
    expect(again.statuses).toEqual(['SUBSCRIBED']);
    // A frame the old socket delivers late is not heard.
    first.receive({ join_ref: null, ref: null, topic: 'realtime:user:u1', event: 'phx_close', payload: {} });
    expect(again.statuses).toEqual(['SUBSCRIBED']);
  });

  it('beats every 25 s, and closes the socket when a beat goes unanswered until the next', () => {
    const { join, ws, timers } = setup();
    const own = join('user:u1');
    ws().open();
    ws().reply(ws().last('phx_join'), 'ok');
    timers.advance(25_000);
    const beat = ws().last('heartbeat');
    expect(beat).toMatchObject({ topic: 'phoenix', event: 'heartbeat', payload: {}, join_ref: null });
    ws().reply(beat, 'ok');
    timers.advance(25_000);
    expect(ws().sent.filter((frame) => frame.event === 'heartbeat')).toHaveLength(2);
    expect(ws().closedWith).toBeNull();
    timers.advance(25_000);
    expect(ws().closedWith).toEqual({ code: 1000, reason: 'heartbeat timeout' });
    expect(own.statuses).toEqual(['SUBSCRIBED', 'CHANNEL_ERROR']);
  });

  it('sends a new token to the joined channels only, and joins with it from then on', async () => {
    const { socket, join, ws } = setup();
    const own = join('user:u1');
    const waiting = join('public:voting');
    ws().open();
    const [ownJoin] = ws().sent;
    ws().reply(ownJoin!, 'ok');
    await socket.setAuth('token-2');
    const tokens = ws().sent.filter((frame) => frame.event === 'access_token');
    expect(tokens).toEqual([
      expect.objectContaining({
        topic: 'realtime:user:u1',
        join_ref: ownJoin!.ref,
        payload: { access_token: 'token-2' },
      }),
    ]);
    expect(own.statuses).toEqual(['SUBSCRIBED']);
    expect(waiting.statuses).toEqual([]);
    join('user:u1');
    expect(ws().last('phx_join').payload).toMatchObject({ access_token: 'token-2' });
  });

  it('leaves a joined channel on removal, and closes the socket with its last channel', async () => {
    const { socket, join, ws } = setup();
    const own = join('user:u1');
    const board = join('public:voting');
    ws().open();
    for (const sent of [...ws().sent]) ws().reply(sent, 'ok');
    await socket.removeChannel(own.channel);
    expect(ws().last('phx_leave')).toMatchObject({ topic: 'realtime:user:u1' });
    expect(ws().closedWith).toBeNull();
    // A join on its way is left too (the server may answer it yet).
    const waiting = join('user:u1');
    await socket.removeChannel(waiting.channel);
    expect(ws().sent.filter((frame) => frame.event === 'phx_leave')).toHaveLength(2);
    await socket.removeChannel(board.channel);
    expect(ws().closedWith).toEqual({ code: 1000, reason: 'Disconnected' });
    // Removed channels are told nothing more.
    expect(own.statuses).toEqual(['SUBSCRIBED']);
    expect(board.statuses).toEqual(['SUBSCRIBED']);
  });

  it('ignores frames that are no message of its own', () => {
    const { join, ws } = setup();
    const own = join('user:u1');
    ws().open();
    const joinFrame = ws().last('phx_join');
    for (const junk of [
      'not json',
      '\u0000',
      '"\ud800"',
      '[null,null,"realtime:user:u1","phx_close",{}]',
      JSON.stringify({ topic: 'realtime:user:u1' }),
      JSON.stringify({ topic: 7, event: 'phx_close', payload: {} }),
      JSON.stringify({
        join_ref: joinFrame.ref,
        ref: 'another',
        topic: 'realtime:user:u1',
        event: 'phx_reply',
        payload: { status: 'ok' },
      }),
    ]) {
      ws().receive(junk);
    }
    ws().onmessage?.({ data: new ArrayBuffer(4) });
    expect(own.statuses).toEqual([]);
    ws().reply(joinFrame, 'ok');
    expect(own.statuses).toEqual(['SUBSCRIBED']);
  });
});
