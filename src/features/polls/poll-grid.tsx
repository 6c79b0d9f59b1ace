import { useId, useMemo } from 'react';
import type { PollRow, VoteRow } from '../../data/rows.ts';
import { boardOrder } from '../../domain/polls.ts';
import { PollCard } from './poll-card.tsx';

export interface PollGridProps {
  polls: readonly PollRow[];
  myVotes: ReadonlyMap<string, VoteRow>;
  now: Date;
  timeZone: string;
  watermark: boolean;
}

function Cards({ polls, myVotes, now, timeZone, watermark }: PollGridProps) {
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

/**
 * The poll cards of the board and of a directory's Team Polls tab: the open polls first (the
 * soonest deadline first), then under 'Ended' the ended ones (domain/polls.ts `boardOrder`).
 */
export function PollGrid(props: PollGridProps) {
  const { polls, now } = props;
  const { open, ended } = useMemo(() => boardOrder(polls, now), [polls, now]);
  const endedId = useId();
  return (
    <div className="space-y-6">
      {open.length > 0 && <Cards {...props} polls={open} />}
      {ended.length > 0 && (
        <section aria-labelledby={endedId} className="space-y-3">
          <h2 id={endedId} className="text-sm font-semibold tracking-wide text-slate-600 uppercase">
            Ended
          </h2>
          <Cards {...props} polls={ended} />
        </section>
      )}
    </div>
  );
}
