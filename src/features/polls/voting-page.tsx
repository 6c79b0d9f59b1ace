import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { VOTING_TOPIC, listenOn } from '../../backend/live-topics.ts';
import { usePollsCreatedSince, usePollsWithVotes } from '../../data/queries/polls.ts';
import { useUserDb } from '../../data/user-db-context.ts';
import { monthStart, underLimit } from '../../domain/limits.ts';
import { messages } from '../../domain/sync-codes.ts';
import { Button } from '../../ui/button.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { usePageTitle } from '../../ui/page-title.ts';
import { PAGES } from '../../domain/pages.ts';
import { ScreenHeader } from '../../ui/screen-header.tsx';
import { AdSlot } from '../../ui/ad-slot.tsx';
import { PollDialog } from './poll-dialog.tsx';
import { PollGrid } from './poll-grid.tsx';
import { boardStats } from './poll-results.ts';
import { usePollViewer } from './use-poll-viewer.ts';

const FREE_UPSELL =
  'Free users can create up to 5 polls per month. Upgrade to Pro for unlimited polls and watermark removal.';

function StatCard({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-surface p-3 sm:p-4">
      <p className="text-xs text-slate-600 sm:text-sm">{label}</p>
      <p className="mt-1 text-2xl font-bold text-slate-900 tabular-nums">{value}</p>
    </div>
  );
}

/**
 * The Public Voting Board (docs/product.md, Polls, docs/product.md, Route rules: /Voting and /Voting/{username}): stat cards,
 * Create Poll (disabled at the Free quota), the public polls, and for Free users the upsell, the
 * watermark on each card and an ad placeholder (docs/product.md, Decisions). While shown it listens on the board's
 * poke topic, so another user's poll or vote shows at once (docs/sync-protocol.md, "Poke").
 */
export function VotingPage() {
  usePageTitle(PAGES.voting.title);
  const { db } = useUserDb();
  const { tier, timeZone, username, now } = usePollViewer();
  const board = usePollsWithVotes(db);
  // The Free quota as the server counts it: polls created this calendar month in the user's zone.
  const createdThisMonth = usePollsCreatedSince(db, monthStart(now, timeZone));
  const atQuota = createdThisMonth !== undefined && !underLimit(tier, 'pollsPerMonth', createdThisMonth);
  const free = tier === 'free';
  const [creating, setCreating] = useState(false);
  const stats = useMemo(() => board && boardStats(board.polls, board.myVotes, now), [board, now]);
  useEffect(() => listenOn(VOTING_TOPIC), []);

  // The dashboard's Quick Add 'Start Vote' lands here with ?new=poll: the dialog opens once the
  // quota is known (not at all when it is used up), then the parameter goes.
  const [params, setParams] = useSearchParams();
  const newPollAsked = params.get('new') === 'poll' && createdThisMonth !== undefined;
  const [handledAsk, setHandledAsk] = useState(false);
  if (newPollAsked !== handledAsk) {
    setHandledAsk(newPollAsked);
    if (newPollAsked && !atQuota) setCreating(true);
  }
  useEffect(() => {
    if (!newPollAsked) return;
    setParams(
      (current) => {
        current.delete('new');
        return current;
      },
      { replace: true },
    );
  }, [newPollAsked, setParams]);
  // The command palette opens a poll with ?poll={id}: its card takes the focus once the board shows it.
  const wantedPoll = board ? params.get('poll') : null;
  useEffect(() => {
    if (!wantedPoll) return;
    const card = document.getElementById(`poll-${wantedPoll}`);
    card?.focus();
    card?.scrollIntoView?.({ block: 'center' });
    setParams(
      (current) => {
        current.delete('poll');
        return current;
      },
      { replace: true },
    );
  }, [wantedPoll, setParams]);

  return (
    <>
      <ScreenHeader
        title="Public Voting Board"
        actions={
          <Button
            aria-keyshortcuts="n"
            disabled={atQuota}
            aria-describedby={atQuota ? 'poll-quota-reached' : undefined}
            onClick={() => setCreating(true)}
          >
            Create Poll
          </Button>
        }
      />
      {free && (
        <div className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-amber-200 dark:border-amber-800 bg-amber-50 dark:bg-amber-950/40 p-4">
          <div className="text-sm text-amber-900 dark:text-amber-100">
            {atQuota && (
              <p id="poll-quota-reached" className="font-semibold">
                {messages.morePolls}
              </p>
            )}
            <p>{FREE_UPSELL}</p>
          </div>
          <Link
            to={username ? `/Upgrade/${username}` : '/Upgrade'}
            className="rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700"
          >
            Upgrade to Pro
          </Link>
        </div>
      )}
      <section aria-label="Poll statistics" className="mb-6 grid grid-cols-3 gap-3 sm:gap-4">
        <StatCard label="Active Polls" value={stats?.activePolls ?? 0} />
        <StatCard label="Total Votes" value={stats?.totalVotes ?? 0} />
        <StatCard label="Your Votes" value={stats?.yourVotes ?? 0} />
      </section>
      <div className={free ? 'grid gap-6 lg:grid-cols-[1fr_18.75rem]' : ''}>
        <section aria-label="Polls">
          {!board ? (
            <p className="text-sm text-slate-600" role="status">
              Loading polls...
            </p>
          ) : board.polls.length === 0 ? (
            <EmptyState title="No active polls yet">Create your first community poll to get started</EmptyState>
          ) : (
            <PollGrid
              polls={board.polls}
              myVotes={board.myVotes}
              now={now}
              timeZone={timeZone}
              watermark={free}
              myName={username || null}
            />
          )}
        </section>
        {free && <AdSlot shape="rectangle" />}
      </div>
      {creating && <PollDialog timeZone={timeZone} onClose={() => setCreating(false)} />}
    </>
  );
}
