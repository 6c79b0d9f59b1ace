import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { usePollsWithVotes } from '../../data/queries/polls.ts';
import { useUserDb } from '../../data/user-db-context.ts';
import type { Tier } from '../../domain/plans.ts';
import { Button } from '../../ui/button.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { PollDialog } from './poll-dialog.tsx';
import { PollGrid } from './poll-grid.tsx';
import { usePollViewer } from './use-poll-viewer.ts';

export interface TeamPollsProps {
  directoryId: string;
  /** The directory owner's plan: team polls are a feature of the directory's plan (docs/product.md, Plans and limits). */
  tier: Tier;
  /** The signed-in user's username (for the upgrade link). */
  username: string;
  /** Whether the user may create a poll in this directory. */
  canCreate: boolean;
}

function Upsell({ username }: { username: string }) {
  const navigate = useNavigate();
  return (
    <div className="rounded-2xl border border-slate-200 bg-surface p-10 text-center">
      <p className="text-lg font-semibold text-slate-900">Unlock Team Polls</p>
      <p className="mt-2 text-sm text-slate-600">Shared team voting boards are exclusive to the Team plan.</p>
      <Button className="mt-4" onClick={() => navigate(username ? `/Upgrade/${username}` : '/Upgrade')}>
        Upgrade to Team Plan
      </Button>
    </div>
  );
}

function TeamPollBoard({ directoryId, canCreate }: { directoryId: string; canCreate: boolean }) {
  const { db } = useUserDb();
  const { timeZone, now, username } = usePollViewer();
  const board = usePollsWithVotes(db, directoryId);
  const [creating, setCreating] = useState(false);

  let body;
  if (!board) {
    body = (
      <p className="text-sm text-slate-600" role="status">
        Loading polls...
      </p>
    );
  } else if (board.polls.length === 0) {
    body = (
      <EmptyState title="No team polls yet">
        <p>Create the first poll for this directory</p>
        {canCreate && (
          <Button className="mt-4" onClick={() => setCreating(true)}>
            Create First Poll
          </Button>
        )}
      </EmptyState>
    );
  } else {
    // Team directories carry no watermark: the Team plan has none (docs/product.md, Roles and permissions).
    body = (
      <PollGrid
        polls={board.polls}
        myVotes={board.myVotes}
        now={now}
        timeZone={timeZone}
        watermark={false}
        myName={username || null}
      />
    );
  }

  return (
    <section aria-label="Team Polls" className="space-y-4">
      {canCreate && (
        <div className="flex justify-end">
          <Button onClick={() => setCreating(true)}>Create Team Poll</Button>
        </div>
      )}
      {body}
      {creating && <PollDialog directoryId={directoryId} timeZone={timeZone} onClose={() => setCreating(false)} />}
    </section>
  );
}

/**
 * A directory's Team Polls tab (docs/product.md, Links screen): on a Team-plan directory its polls, with Create Team
 * Poll for those who may; on any other plan the 'Unlock Team Polls' upsell.
 */
export function TeamPolls({ directoryId, tier, username, canCreate }: TeamPollsProps) {
  if (tier !== 'team') return <Upsell username={username} />;
  return <TeamPollBoard directoryId={directoryId} canCreate={canCreate} />;
}
