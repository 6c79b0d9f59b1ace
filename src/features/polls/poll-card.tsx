import { memo, useEffect, useId, useState } from 'react';
import type { PollRow, VoteRow } from '../../data/rows.ts';
import { useUserDb } from '../../data/user-db-context.ts';
import { epochOf } from '../../domain/event-times.ts';
import { PRODUCT_NAME } from '../../ui/page-title.ts';
import { deadlineLine, pollResults, pollView, votesLabel, type PollResults } from './poll-results.ts';
import { appNowMs } from '../../backend/server-clock.ts';

export interface PollCardProps {
  poll: PollRow;
  /** The user's vote on this poll, if any (a queued one too). */
  vote: VoteRow | undefined;
  now: Date;
  timeZone: string;
  /** The 'Powered by' watermark (docs/product.md, Polls: Free users). */
  watermark: boolean;
}

function Results({ results, choice, titleId }: { results: PollResults; choice: number | null; titleId: string }) {
  return (
    <ul className="space-y-3" aria-labelledby={titleId}>
      {results.options.map((option, index) => {
        const mine = index === choice;
        return (
          <li key={index} aria-current={mine ? 'true' : undefined}>
            <div className="flex items-baseline justify-between gap-3 text-sm">
              <span
                className={`min-w-0 break-words ${mine ? 'font-semibold text-brand-700 dark:text-brand-300' : 'text-slate-800'}`}
              >
                {option.text}
                {mine && (
                  <span className="ml-2 rounded-full bg-brand-50 dark:bg-brand-950/40 px-2 py-0.5 text-xs font-medium text-brand-700 dark:text-brand-300">
                    Your vote
                  </span>
                )}
              </span>
              <span className="shrink-0 text-slate-700 tabular-nums">
                {option.percent}% · {votesLabel(option.votes)}
              </span>
            </div>
            <div className="mt-1 h-2 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
              <div
                className={`h-full rounded-full ${mine ? 'bg-brand-600' : 'bg-slate-400'}`}
                style={{ width: `${option.share}%` }}
              />
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * One poll (docs/product.md, Polls 'Poll'): option buttons while it is open and the user has not voted;
 * afterwards, or once its deadline passed, the results with the user's choice marked. Everything
 * comes from the local rows, so a vote cast offline shows at once (the mutator counts it), and a
 * vote the server refuses disappears with the sync engine's rollback.
 */
/** Longest delay setTimeout takes; a deadline further away is caught by the screen's clock. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The clock, moved to the deadline the moment it passes: the card turns to Ended then rather
 * than at the screen's next 15-second tick (a vote in between would only be refused).
 */
function useClockPastDeadline(deadline: string | null, now: Date): Date {
  const end = epochOf(deadline);
  const [reached, setReached] = useState<number | null>(null);
  useEffect(() => {
    if (end === null) return;
    const delay = end - appNowMs();
    if (delay > MAX_TIMER_MS) return;
    const timer = setTimeout(() => setReached(end), Math.max(0, delay) + 1);
    return () => clearTimeout(timer);
  }, [end]);
  return reached !== null && reached === end && reached >= now.getTime() ? new Date(reached) : now;
}

function PollCardView({ poll, vote, now: screenNow, timeZone, watermark }: PollCardProps) {
  const { mutate } = useUserDb();
  const titleId = useId();
  const [voting, setVoting] = useState(false);
  const now = useClockPastDeadline(poll.deadline, screenNow);
  const view = pollView(poll, vote, now);
  const results = pollResults(poll.options);
  const deadline = deadlineLine(poll, now, timeZone);

  async function cast(optionIndex: number) {
    setVoting(true);
    try {
      // A refusal (closed, already voted) is shown by mutate; other failures are logged (docs/product.md, Error messages).
      await mutate('poll.vote', { id: crypto.randomUUID(), post_id: poll.id, option_index: optionIndex });
    } catch (error) {
      console.error('Vote failed', error);
    } finally {
      setVoting(false);
    }
  }

  return (
    <article
      id={`poll-${poll.id}`}
      tabIndex={-1}
      aria-labelledby={titleId}
      className="flex flex-col gap-4 rounded-2xl border border-slate-200 bg-surface p-5 shadow-sm"
    >
      <header>
        <h3 id={titleId} className="text-base font-semibold break-words text-slate-900">
          {poll.title}
        </h3>
        {poll.description && <p className="mt-1 text-sm break-words text-slate-600">{poll.description}</p>}
      </header>
      {view.kind === 'votable' ? (
        <ul className="space-y-2" aria-labelledby={titleId}>
          {poll.options.map((option, index) => (
            <li key={index}>
              <button
                type="button"
                disabled={voting}
                onClick={() => void cast(index)}
                className="w-full rounded-lg border border-slate-300 px-4 py-2 text-left text-sm font-medium break-words text-slate-900 hover:border-brand-600 hover:bg-brand-50 dark:hover:bg-brand-950/40 focus-visible:outline-2 focus-visible:outline-brand-600 disabled:cursor-wait disabled:opacity-60"
              >
                {option.text}
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <Results results={results} choice={view.choice} titleId={titleId} />
      )}
      <footer className="mt-auto flex flex-wrap items-center justify-between gap-2 text-xs text-slate-600">
        <span className="tabular-nums">{votesLabel(results.total)}</span>
        {deadline && <span className={view.kind === 'ended' ? 'font-medium text-slate-800' : ''}>{deadline}</span>}
        {watermark && <span className="w-full text-slate-500">Powered by {PRODUCT_NAME}</span>}
      </footer>
    </article>
  );
}

/**
 * Memoized: a vote changes its own poll's row (and the user's vote), so only that card renders
 * again in the frame that shows it, not every card on the board.
 */
export const PollCard = memo(PollCardView);
