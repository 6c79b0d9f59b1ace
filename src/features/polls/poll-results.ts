/**
 * What a poll card shows (docs/product.md, Polls 'Poll'): whether it still takes votes, its results as
 * percentages with one decimal, its deadline line in the user's time zone, and the board's stat
 * cards. Pure: the clock and the zone are arguments.
 */
import { isPollOpen } from '../../domain/polls.ts';
import type { PollOption, PollRow, VoteRow } from '../../data/rows.ts';
import { formatDateTime } from '../../domain/date-format.ts';
import { epochOf } from '../../domain/event-times.ts';

export interface OptionResult {
  text: string;
  votes: number;
  /** The share of all votes with one decimal ('66.7'); '0.0' when nobody voted. */
  percent: string;
  /** The share as a number from 0 to 100, for the bar's width. */
  share: number;
}

export interface PollResults {
  total: number;
  options: OptionResult[];
}

/** A count as stored; anything that is not a non-negative number counts as 0. */
function votesOf(option: PollOption): number {
  return Number.isFinite(option.votes) && option.votes > 0 ? Math.floor(option.votes) : 0;
}

/** Each option's votes and share of the total (docs/product.md, Polls: percentage with one decimal plus the count). */
export function pollResults(options: readonly PollOption[]): PollResults {
  const total = options.reduce((sum, option) => sum + votesOf(option), 0);
  return {
    total,
    options: options.map((option) => {
      const votes = votesOf(option);
      const share = total === 0 ? 0 : (votes / total) * 100;
      return { text: option.text, votes, percent: share.toFixed(1), share };
    }),
  };
}

/** '1 vote' or 'N votes'. */
export function votesLabel(count: number): string {
  return count === 1 ? '1 vote' : `${count} votes`;
}

export type PollView =
  /** Open, and the user has not voted: option buttons. */
  | { kind: 'votable' }
  /** The user voted (possibly still queued): results, their choice marked. */
  | { kind: 'voted'; choice: number }
  /** Past its deadline: results, no votes taken (docs/product.md, Calendar). */
  | { kind: 'ended'; choice: number | null };

/** What the card shows for `poll`, given the user's vote on it (if any) and the clock. */
export function pollView(poll: PollRow, vote: VoteRow | undefined, now: Date): PollView {
  const choice = vote?.option_index ?? null;
  if (!isPollOpen(poll, now)) return { kind: 'ended', choice };
  return choice === null ? { kind: 'votable' } : { kind: 'voted', choice };
}

/** An instant as the user reads it, in their locale and zone: '5 Mar 2026, 14:30' (date-format.ts). */
export function formatDeadline(instant: string | Date, timeZone: string, locale?: string): string {
  return formatDateTime(instant, timeZone, locale);
}

/** 'Ends {date}' or 'Ended {date}' (docs/product.md, Polls); null when the poll has no (readable) deadline. */
export function deadlineLine(poll: PollRow, now: Date, timeZone: string): string | null {
  const time = epochOf(poll.deadline);
  if (time === null) return null;
  return `${time > now.getTime() ? 'Ends' : 'Ended'} ${formatDeadline(new Date(time), timeZone)}`;
}

export interface BoardStats {
  /** Shown polls still taking votes. */
  activePolls: number;
  /** Every vote counted on the shown polls. */
  totalVotes: number;
  /** The user's votes on the shown polls. */
  yourVotes: number;
}

/** The stat cards of the board (docs/product.md, Polls: Active Polls, Total Votes, Your Votes). */
export function boardStats(polls: readonly PollRow[], myVotes: ReadonlyMap<string, VoteRow>, now: Date): BoardStats {
  let activePolls = 0;
  let totalVotes = 0;
  let yourVotes = 0;
  for (const poll of polls) {
    if (isPollOpen(poll, now)) activePolls += 1;
    totalVotes += pollResults(poll.options).total;
    if (myVotes.has(poll.id)) yourVotes += 1;
  }
  return { activePolls, totalVotes, yourVotes };
}
