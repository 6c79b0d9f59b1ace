import { useNavigate } from 'react-router-dom';
import type { Tier } from '../../domain/plans.ts';
import { Button } from '../../ui/button.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';

/** The Team Polls tab (spec 2.6): team users see the directory's polls, others an upsell. */
export function TeamPollsTab({ tier, username }: { tier: Tier; username: string }) {
  const navigate = useNavigate();
  if (tier !== 'team') {
    return (
      <div className="rounded-2xl border border-slate-200 bg-white p-10 text-center">
        <p className="text-lg font-semibold text-slate-900">Unlock Team Polls</p>
        <p className="mt-2 text-sm text-slate-600">Shared team voting boards are exclusive to the Team plan.</p>
        <Button className="mt-4" onClick={() => navigate(`/Upgrade/${username}`)}>
          Upgrade to Team Plan
        </Button>
      </div>
    );
  }
  return <EmptyState title="No team polls yet">Create the first poll for this directory</EmptyState>;
}
