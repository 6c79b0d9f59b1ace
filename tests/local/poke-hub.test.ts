/**
 * The poke hub (supabase/local/poke-hub.ts): listeners by topic, caps per user and in all, and the
 * per-topic throttle: the first poke at once, one trailing poke for all that follow within the
 * interval, so a busy poll costs each listener a few pulls a second and the last vote still pokes.
 */
import { describe, expect, it } from 'vitest';
import { PokeHub, isPublicTopic, userTopic } from '../../supabase/local/poke-hub.ts';
import { ManualTimers } from '../sync/fake-server.ts';

const BOARD = 'public:voting';

function hub() {
  const clock = new ManualTimers();
  const pokes = new PokeHub({ limits: { perUser: 2, total: 3 }, intervalMs: 250, clock });
  const counter = () => {
    const heard = { count: 0 };
    return { heard, listener: () => (heard.count += 1) };
  };
  return { clock, pokes, counter };
}

describe('PokeHub', () => {
  it('pokes the streams on a topic: its user’s own, and the public topics they listen on', () => {
    const { pokes, counter } = hub();
    const onBoard = counter();
    const elsewhere = counter();
    pokes.subscribe('a', [BOARD], onBoard.listener);
    pokes.subscribe('b', [], elsewhere.listener);
    pokes.poke([BOARD]);
    expect(onBoard.heard.count).toBe(1);
    expect(elsewhere.heard.count).toBe(0);
    pokes.poke([userTopic('b')]);
    expect(elsewhere.heard.count).toBe(1);
    expect(onBoard.heard.count).toBe(1);
  });

  it('makes a burst on one topic one poke at once and one at the end of the interval, never more', () => {
    const { clock, pokes, counter } = hub();
    const onBoard = counter();
    pokes.subscribe('a', [BOARD], onBoard.listener);
    for (let vote = 0; vote < 50; vote += 1) pokes.poke([BOARD]);
    expect(onBoard.heard.count).toBe(1);
    expect(clock.delays).toEqual([250]);
    // The interval ends: the votes after the first make one trailing poke, which holds the topic again.
    clock.fireAll();
    expect(onBoard.heard.count).toBe(2);
    expect(clock.scheduled).toBe(1);
    // Nothing more came: the topic is free, and the next poke goes at once.
    clock.fireAll();
    expect(onBoard.heard.count).toBe(2);
    expect(clock.scheduled).toBe(0);
    pokes.poke([BOARD]);
    expect(onBoard.heard.count).toBe(3);
  });

  it('throttles each topic on its own, and holds nothing for a topic nobody listens on', () => {
    const { clock, pokes, counter } = hub();
    const a = counter();
    pokes.subscribe('a', [BOARD], a.listener);
    pokes.poke([BOARD]);
    pokes.poke([userTopic('a')]);
    expect(a.heard.count).toBe(2);
    pokes.poke([userTopic('nobody'), 'public:other']);
    expect(clock.scheduled).toBe(2);
  });

  it('stops poking a stream once it unsubscribes, and caps streams per user and in all', () => {
    const { pokes, counter } = hub();
    const first = counter();
    const off = pokes.subscribe('a', [BOARD], first.listener)!;
    expect(pokes.subscribe('a', [], counter().listener)).not.toBeNull();
    expect(pokes.subscribe('a', [], counter().listener)).toBeNull();
    expect(pokes.subscribe('b', [], counter().listener)).not.toBeNull();
    expect(pokes.subscribe('c', [], counter().listener)).toBeNull();
    off();
    off();
    expect(pokes.size).toBe(2);
    pokes.poke([BOARD, userTopic('a')]);
    expect(first.heard.count).toBe(0);
    expect(pokes.subscribe('c', [], counter().listener)).not.toBeNull();
  });

  it('lets a client name public topics only', () => {
    expect(isPublicTopic(BOARD)).toBe(true);
    for (const topic of ['user:00000000-0000-4000-8000-000000000000', 'public:', 'public:Voting', 'voting']) {
      expect(isPublicTopic(topic)).toBe(false);
    }
    expect(isPublicTopic(`public:${'a'.repeat(65)}`)).toBe(false);
    expect(isPublicTopic('public:voting\u0000')).toBe(false);
    expect(isPublicTopic('public:\ud800')).toBe(false);
  });
});
