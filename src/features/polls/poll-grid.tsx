import type { PollRow, VoteRow } from '../../data/rows.ts';
import { PollCard } from './poll-card.tsx';

export interface PollGridProps {
  polls: readonly PollRow[];
  myVotes: ReadonlyMap<string, VoteRow>;
  now: Date;
  timeZone: string;
  watermark: boolean;
}

/** The poll cards of the board and of a directory's Team Polls tab. */
export function PollGrid({ polls, myVotes, now, timeZone, watermark }: PollGridProps) {
  return (
    <ul className="grid grid-cols-1 gap-4 md:grid-cols-2">
      {polls.map((poll) => (
        <li key={poll.id} className="flex [&>article]:flex-1">
          <PollCard poll={poll} vote={myVotes.get(poll.id)} now={now} timeZone={timeZone} watermark={watermark} />
        </li>
      ))}
    </ul>
  );
}
