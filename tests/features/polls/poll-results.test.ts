import { describe, expect, it } from 'vitest';
import type { PollRow, VoteRow } from '../../../src/data/rows.ts';
import {
  boardStats,
  deadlineLine,
  formatDeadline,
  pollResults,
  pollView,
  votesLabel,
} from '../../../src/features/polls/poll-results.ts';
import { makePoll, makeVote } from './poll-builders.ts';

describe('pollResults', () => {
  it('gives each option its share with one decimal, and the total', () => {
    const results = pollResults([
      { text: 'Tabs', votes: 1 },
      { text: 'Spaces', votes: 2 },
    ]);
    expect(results.total).toBe(3);
    expect(results.options.map((option) => option.percent)).toEqual(['33.3', '66.7']);
    expect(results.options[1]!.share).toBeCloseTo(66.667, 2);
  });

  it('says 0.0% for every option while nobody voted', () => {
    const results = pollResults([
      { text: 'a', votes: 0 },
      { text: 'b', votes: 0 },
    ]);
    expect(results).toEqual({
      total: 0,
      options: [
        { text: 'a', votes: 0, percent: '0.0', share: 0 },
        { text: 'b', votes: 0, percent: '0.0', share: 0 },
      ],
    });
  });

  it('rounds to one decimal and shows 100.0 for a single vote', () => {
    expect(
      pollResults([
        { text: 'a', votes: 1 },
        { text: 'b', votes: 0 },
      ]).options.map((o) => o.percent),
    ).toEqual(['100.0', '0.0']);
    const thirds = pollResults([
      { text: 'a', votes: 1 },
      { text: 'b', votes: 1 },
      { text: 'c', votes: 1 },
    ]);
    expect(thirds.options.map((o) => o.percent)).toEqual(['33.3', '33.3', '33.3']);
    expect(
      pollResults([
        { text: 'a', votes: 2 },
        { text: 'b', votes: 1 },
        { text: 'c', votes: 5 },
      ]).options[0]!.percent,
    ).toBe('25.0');
  });

  it('counts a damaged count (negative, fractional, not a number) as what it can be', () => {
    const results = pollResults([
      { text: 'a', votes: -3 },
      { text: 'b', votes: Number.NaN },
      { text: 'c', votes: 2.7 },
    ]);
    expect(results.total).toBe(2);
    expect(results.options.map((o) => o.votes)).toEqual([0, 0, 2]);
  });

  it('labels counts', () => {
    expect(votesLabel(0)).toBe('0 votes');
    expect(votesLabel(1)).toBe('1 vote');
    expect(votesLabel(2)).toBe('2 votes');
  });
});

describe('pollView', () => {
  const now = new Date('2030-05-01T12:00:00Z');
  it('offers the options until the user votes or the deadline passes', () => {
    const poll = makePoll({ deadline: '2030-05-01T13:00:00Z' });
    expect(pollView(poll, undefined, now)).toEqual({ kind: 'votable' });
    expect(pollView(poll, makeVote({ post_id: poll.id, option_index: 1 }), now)).toEqual({ kind: 'voted', choice: 1 });
    expect(pollView(poll, undefined, new Date('2030-05-01T13:00:00Z'))).toEqual({ kind: 'ended', choice: null });
    const vote: VoteRow = makeVote({ post_id: poll.id, option_index: 0 });
    expect(pollView(poll, vote, new Date('2030-05-02T00:00:00Z'))).toEqual({ kind: 'ended', choice: 0 });
  });

  it('keeps a poll without a deadline open', () => {
    expect(pollView(makePoll({ deadline: null }), undefined, now)).toEqual({ kind: 'votable' });
  });
});

describe('the deadline line', () => {
  const poll: PollRow = makePoll({ deadline: '2030-03-05T13:30:00Z' });
  it("reads 'Ends {date}' before and 'Ended {date}' after, in the user's zone", () => {
    expect(deadlineLine(poll, new Date('2030-03-05T13:29:00Z'), 'Europe/Berlin')).toBe('Ends 5 Mar 2030, 14:30');
    expect(deadlineLine(poll, new Date('2030-03-05T13:30:00Z'), 'Europe/Berlin')).toBe('Ended 5 Mar 2030, 14:30');
    expect(deadlineLine(poll, new Date('2030-03-01T00:00:00Z'), 'America/New_York')).toBe('Ends 5 Mar 2030, 08:30');
  });

  it('falls back to UTC for a missing or unknown zone, and says nothing without a deadline', () => {
    expect(formatDeadline('2030-03-05T13:30:00Z', 'Not/AZone')).toBe('5 Mar 2030, 13:30');
    expect(formatDeadline('2030-03-05T13:30:00Z', '')).toBe('5 Mar 2030, 13:30');
    expect(deadlineLine(makePoll({ deadline: null }), new Date(), 'UTC')).toBeNull();
    expect(deadlineLine(makePoll({ deadline: 'soon' }), new Date(), 'UTC')).toBeNull();
  });
});

describe('boardStats', () => {
  it('counts open polls, every vote and the user’s votes on the shown polls', () => {
    const now = new Date('2030-05-01T12:00:00Z');
    const open = makePoll({
      id: 'p1',
      options: [
        { text: 'a', votes: 2 },
        { text: 'b', votes: 1 },
      ],
    });
    const ended = makePoll({
      id: 'p2',
      deadline: '2030-04-01T00:00:00Z',
      options: [
        { text: 'a', votes: 4 },
        { text: 'b', votes: 0 },
      ],
    });
    const votes = new Map([['p2', makeVote({ post_id: 'p2' })]]);
    expect(boardStats([open, ended], votes, now)).toEqual({ activePolls: 1, totalVotes: 7, yourVotes: 1 });
    expect(boardStats([], new Map(), now)).toEqual({ activePolls: 0, totalVotes: 0, yourVotes: 0 });
  });
});
