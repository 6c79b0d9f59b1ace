import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { EmptyState } from '../../ui/empty-state.tsx';
import { usePageTitle } from '../../ui/page-title.ts';
import { PAGES } from '../../domain/pages.ts';
import { OfflineCopyNote, OfflinePage, useReloadWhenOnline } from './offline-state.tsx';
import { loadPublicProfile, type ProfileResult } from './public-api.ts';
import { ProfileCollectionCard } from './profile-collection-card.tsx';
import { VisitorLayout } from './visitor-layout.tsx';

type State = { kind: 'loading' } | ProfileResult;

/** The username from ?user= or the last path segment (docs/product.md, Public pages; /{username} too). */
function useUsername(): string {
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  const last = pathname.split('/').filter(Boolean).pop() ?? '';
  const fromPath = last.toLowerCase() === 'publicprofile' ? '' : decodeURIComponent(last);
  return (params.get('user') ?? fromPath).trim();
}

function TierBadge({ tier }: { tier: string | null }) {
  if (tier !== 'pro' && tier !== 'team') return null;
  return (
    <span className="rounded-full bg-indigo-100 dark:bg-indigo-900/50 px-3 py-1 text-xs font-semibold text-indigo-700 dark:text-indigo-300">
      {tier === 'pro' ? 'Pro' : 'Team'}
    </span>
  );
}

/**
 * A user's public page (docs/product.md, Public pages): who they are and their public directories; offline, the
 * copy last seen here, or 'You are offline'.
 */
export function PublicProfilePage() {
  const username = useUsername();
  const [loaded, setLoaded] = useState<{ username: string; state: State } | null>(null);
  const [attempt, setAttempt] = useState(0);
  const state: State = !username
    ? { kind: 'missing' }
    : loaded?.username === username
      ? loaded.state
      : { kind: 'loading' };
  usePageTitle(username ? `@${username}` : PAGES.publicProfile.title);

  useEffect(() => {
    if (!username) return;
    let live = true;
    void loadPublicProfile(username).then((result) => {
      if (live) setLoaded({ username, state: result });
    });
    return () => {
      live = false;
    };
  }, [username, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  useReloadWhenOnline(state.kind === 'offline' || (state.kind === 'ok' && !!state.savedAt), retry);

  return (
    <VisitorLayout>
      <ProfileBody state={state} onRetry={retry} />
    </VisitorLayout>
  );
}

function Centered({ children }: { children: ReactNode }) {
  return <div className="mx-auto max-w-2xl px-4 py-16 text-center">{children}</div>;
}

function ProfileBody({ state, onRetry }: { state: State; onRetry: () => void }) {
  switch (state.kind) {
    case 'loading':
      return (
        <Centered>
          <p role="status" className="text-slate-500">
            Loading...
          </p>
        </Centered>
      );
    case 'offline':
      return <OfflinePage onRetry={onRetry} />;
    case 'throttled':
      return (
        <Centered>
          <p role="alert" className="text-slate-700">
            {state.message}
          </p>
        </Centered>
      );
    case 'missing':
      return (
        <Centered>
          <h1 className="text-2xl font-bold text-slate-900">Profile Not Found</h1>
          <p className="mt-2 text-slate-600">This user profile doesn't exist or isn't public.</p>
        </Centered>
      );
  }
  const { profile, directories } = state.data;
  return (
    <div className="mx-auto max-w-4xl px-4 py-12">
      {state.savedAt && <OfflineCopyNote savedAt={state.savedAt} />}
      <header className="mb-10 text-center">
        <h1 className="text-3xl font-bold text-slate-900">{profile.full_name || profile.username}</h1>
        <p className="mt-1 text-slate-500">@{profile.username}</p>
        <div className="mt-2 flex justify-center">
          <TierBadge tier={profile.subscription_tier} />
        </div>
        {profile.bio && <p className="mx-auto mt-4 max-w-xl text-slate-700">{profile.bio}</p>}
      </header>
      <h2 className="mb-4 text-xl font-semibold text-slate-900">Public Collections</h2>
      {directories.length === 0 ? (
        <EmptyState title="No Public Collections" />
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2">
          {directories.map((collection) => (
            <ProfileCollectionCard key={collection.id} collection={collection} />
          ))}
        </ul>
      )}
    </div>
  );
}
