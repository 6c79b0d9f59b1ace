import { describe, expect, it } from 'vitest';
import { boardOrder, isPollOpen } from '../../src/domain/polls.ts';

/** Polls as the server stores them: timestamps as instants with an offset. */
const poll = (id: string, created_at: string, deadline: string | null, is_active: boolean | null = true) => ({
  id,
  created_at,
  deadline,
  is_active,
});

const now = new Date('2026-11-26T12:00:00Z');
const ids = (polls: readonly { id: string }[]) => polls.map((p) => p.id);

describe('the poll board order', () => {
  it('lists the open polls first, then the ended ones', () => {
    const polls = [
      poll('ended-new', '2026-11-25T09:00:00+00:00', '2026-11-26T11:59:59+00:00'),
      poll('open', '2026-11-01T09:00:00+00:00', '2026-12-31T22:59:00+00:00'),
      poll('ended-old', '2026-11-02T09:00:00+00:00', '2026-11-10T00:00:00+00:00'),
      poll('no-deadline', '2026-11-20T09:00:00+00:00', null),
    ];
    const { open, ended } = boardOrder(polls, now);
    expect(ids(open)).toEqual(['open', 'no-deadline']);
    // The most recently ended first.
    expect(ids(ended)).toEqual(['ended-new', 'ended-old']);
    for (const p of open) expect(isPollOpen(p, now)).toBe(true);
    for (const p of ended) expect(isPollOpen(p, now)).toBe(false);
  });

  it('puts the soonest deadline first, polls without one after, and the newest first among equals', () => {
    const polls = [
      poll('later', '2026-11-25T00:00:00+00:00', '2026-12-24T23:00:00+00:00'),
      poll('open-old', '2026-10-01T00:00:00+00:00', null),
      poll('soon', '2026-11-01T00:00:00+00:00', '2026-11-26T13:00:00+01:00'),
      poll('open-new', '2026-11-24T00:00:00+00:00', null),
      poll('soon-b', '2026-11-01T00:00:00+00:00', '2026-11-26T12:00:00+00:00'),
    ];
    // 13:00+01:00 is 12:00Z: the same instant as soon-b's deadline, which is not yet passed (at now it ends).
    const { open } = boardOrder(polls, new Date('2026-11-26T11:00:00Z'));
    expect(ids(open)).toEqual(['soon-b', 'soon', 'later', 'open-new', 'open-old']);
  });

  it('ends a poll at its deadline, and keeps a deadline that does not parse open', () => {
    const polls = [
      poll('at-now', '2026-11-20T00:00:00+00:00', '2026-11-26T12:00:00+00:00'),
      poll('garbled', '2026-11-21T00:00:00+00:00', 'not a date'),
    ];
    const { open, ended } = boardOrder(polls, now);
    expect(ids(open)).toEqual(['garbled']);
    expect(ids(ended)).toEqual(['at-now']);
  });

  it('leaves the input as it was', () => {
    const polls = [poll('b', '2026-11-01T00:00:00+00:00', null), poll('a', '2026-11-02T00:00:00+00:00', null)];
    boardOrder(polls, now);
    expect(ids(polls)).toEqual(['b', 'a']);
  });
});
