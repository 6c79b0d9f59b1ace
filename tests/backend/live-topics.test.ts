import { describe, expect, it } from 'vitest';
import { VOTING_TOPIC, listenOn, liveTopics } from '../../src/backend/live-topics.ts';

describe('live topics', () => {
  it('lists a topic while any screen listens on it, and tells the stream only when the set changes', () => {
    const seen: (readonly string[])[] = [];
    const off = liveTopics.subscribe(() => seen.push(liveTopics.current()));
    const first = listenOn(VOTING_TOPIC);
    // A second screen (or React re-running the effect) on the same topic changes nothing.
    const second = listenOn(VOTING_TOPIC);
    const other = listenOn('public:another');
    expect(liveTopics.current()).toEqual(['public:another', VOTING_TOPIC]);
    first();
    first();
    expect(liveTopics.current()).toEqual(['public:another', VOTING_TOPIC]);
    second();
    other();
    expect(liveTopics.current()).toEqual([]);
    expect(seen).toEqual([[VOTING_TOPIC], ['public:another', VOTING_TOPIC], ['public:another'], []]);
    off();
    listenOn(VOTING_TOPIC)();
    expect(seen).toHaveLength(4);
  });
});
