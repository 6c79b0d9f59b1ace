/**
 * The poke hub (supabase/local/poke-hub.ts): listeners by Realtime topic, and the per-topic
 * throttle: the first poke at once, one trailing poke for all that follow within the interval, so
 * a busy poll costs each listener a few pulls a second and the last vote still pokes.
 */
import { describe, expect, it } from 'vitest';
import { PokeHub, userTopic } from '../../supabase/local/poke-hub.ts';
import { ManualTimers } from '../sync/fake-server.ts';

const BOARD = 'public:voting';

function hub() {
  const clock = new ManualTimers();
  const pokes = new PokeHub({ intervalMs: 250, clock });
  const counter = () => {
    const heard: string[] = [];
    return { heard, listener: (event: string) => heard.push(event) };
  };
  return { clock, pokes, counter };
}

describe('PokeHub', () => {
  it('delivers a topic’s events to the channels joined on it, and to no other', () => {
    const { pokes, counter } = hub();
    const onBoard = counter();
    const elsewhere = counter();
    pokes.listen(BOARD, onBoard.listener);
    pokes.listen(userTopic('b'), elsewhere.listener);
    pokes.poke([BOARD]);
    expect(onBoard.heard).toEqual(['poke']);
    expect(elsewhere.heard).toEqual([]);
    pokes.poke([userTopic('b')]);
    expect(elsewhere.heard).toEqual(['poke']);
    expect(onBoard.heard).toEqual(['poke']);
  });

  it('makes a burst on one topic one poke at once and one at the end of the interval, never more', () => {
    const { clock, pokes, counter } = hub();
    const onBoard = counter();
    pokes.listen(BOARD, onBoard.listener);
    for (let vote = 0; vote < 50; vote += 1) pokes.poke([BOARD]);
    expect(onBoard.heard).toHaveLength(1);
    expect(clock.delays).toEqual([250]);
    // The interval ends: the votes after the first make one trailing poke, which holds the topic again.
    clock.fireAll();
    expect(onBoard.heard).toHaveLength(2);
    expect(clock.scheduled).toBe(1);
    // Nothing more came: the topic is free, and the next poke goes at once.
    clock.fireAll();
    expect(onBoard.heard).toHaveLength(2);
    expect(clock.scheduled).toBe(0);
    pokes.poke([BOARD]);
    expect(onBoard.heard).toHaveLength(3);
  });

  it('throttles each topic and event on its own, and holds nothing for a topic nobody listens on', () => {
    const { clock, pokes, counter } = hub();
    const a = counter();
    pokes.listen(BOARD, a.listener);
    pokes.listen(userTopic('a'), a.listener);
    pokes.poke([BOARD]);
    pokes.poke([userTopic('a')]);
    pokes.poke([BOARD], 'other');
    expect(a.heard).toEqual(['poke', 'poke', 'other']);
    pokes.poke([userTopic('nobody'), 'public:other']);
    expect(clock.scheduled).toBe(3);
  });

  it('stops delivering to a channel once it leaves', () => {
    const { pokes, counter } = hub();
    const first = counter();
    const second = counter();
    const off = pokes.listen(BOARD, first.listener);
    pokes.listen(BOARD, second.listener);
    expect(pokes.size).toBe(2);
    off();
    off();
    expect(pokes.size).toBe(1);
    pokes.poke([BOARD]);
    expect(first.heard).toEqual([]);
    expect(second.heard).toEqual(['poke']);
  });
});
