import { useId, useMemo } from 'react';
import { useTimePollRows, type TimePollRows } from '../../data/queries/time-polls.ts';
import type { PollRow, SlotAnswersRow, VoteRow } from '../../data/rows.ts';
import { useUserDb } from '../../data/user-db-context.ts';
import { boardOrder } from '../../domain/polls.ts';
import { PollCard } from './poll-card.tsx';
import { TimePollCard } from './time-poll-card.tsx';

export interface PollGridProps {
  polls: readonly PollRow[];
  myVotes: ReadonlyMap<string, VoteRow>;
  now: Date;
  timeZone: string;
  watermark: boolean;
  /** The user's own name, for their column of a team time poll until the server names it. */
  myName?: string | null;
}

const NO_ANSWERS: readonly SlotAnswersRow[] = [];

function Cards({ polls, myVotes, now, timeZone, watermark, myName, time }: PollGridProps & { time?: TimePollRows }) {
  return (
    <ul className="grid grid-cols-1 gap-4 md:grid-cols-2">
      {polls.map((poll) => (
        <li key={poll.id} className={`flex [&>article]:flex-1 ${poll.kind === 'time' ? 'md:col-span-2' : ''}`}>
          {poll.kind === 'time' ? (
            <TimePollCard
              poll={poll}
              answers={time?.answers.get(poll.id) ?? NO_ANSWERS}
              invitation={time?.invitations.get(poll.id)}
              now={now}
              timeZone={timeZone}
              myName={myName ?? null}
              watermark={watermark}
            />
          ) : (
            <PollCard poll={poll} vote={myVotes.get(poll.id)} now={now} timeZone={timeZone} watermark={watermark} />
          )}
        </li>
      ))}
    </ul>
  );
}

/**
 * The poll cards of the board and of a directory's Team Polls tab: the open polls first (the
 * soonest deadline first), then under 'Ended' the ended ones (domain/polls.ts `boardOrder`). A
 * 'Find a time' poll takes the grid's full width (its slots are a table).
 */
export function PollGrid(props: PollGridProps) {
  const { polls, now } = props;
  const { db } = useUserDb();
  const { open, ended } = useMemo(() => boardOrder(polls, now), [polls, now]);
  const timeIds = useMemo(() => polls.filter((poll) => poll.kind === 'time').map((poll) => poll.id), [polls]);
  const time = useTimePollRows(db, timeIds);
  const endedId = useId();
  return (
    <div className="space-y-6">
      {open.length > 0 && <Cards {...props} polls={open} time={time} />}
      {ended.length > 0 && (
        <section aria-labelledby={endedId} className="space-y-3">
          <h2 id={endedId} className="text-sm font-semibold tracking-wide text-slate-600 uppercase">
            Ended
          </h2>
          <Cards {...props} polls={ended} time={time} />
        </section>
      )}
    </div>
  );
}
