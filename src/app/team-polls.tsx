import { lazy, Suspense } from 'react';
import type { TeamPollsProps } from '../features/links/team-polls-slot.ts';

const TeamPolls = lazy(async () => ({ default: (await import('../features/polls/team-polls.tsx')).TeamPolls }));

/**
 * The polls feature's Team Polls panel, for the links screen's slot: loaded with the first
 * directory whose Team Polls tab opens, so the links screen does not carry the polls code.
 */
export function LazyTeamPolls(props: TeamPollsProps) {
  return (
    <Suspense fallback={<p className="py-6 text-center text-sm text-slate-600">Loading polls...</p>}>
      <TeamPolls {...props} />
    </Suspense>
  );
}
