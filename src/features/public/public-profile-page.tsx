import { useEffect, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { EmptyState } from '../../ui/empty-state.tsx';
import { usePageTitle } from '../../ui/page-title.ts';
import { loadPublicProfile, type PublicProfile } from './public-api.ts';
import { ProfileCollectionCard } from './profile-collection-card.tsx';

type State = { kind: 'loading' } | { kind: 'missing' } | { kind: 'ok'; data: PublicProfile };

/** The username from ?user= or the last path segment (spec 2.13). */
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
    <span className="rounded-full bg-indigo-100 px-3 py-1 text-xs font-semibold text-indigo-700">
      {tier === 'pro' ? 'Pro' : 'Team'}
    </span>
  );
}

/** A user's public page (spec 2.13): who they are and their public directories. */
export function PublicProfilePage() {
  const username = useUsername();
  const [loaded, setLoaded] = useState<{ username: string; state: State } | null>(null);
  const state: State = !username
    ? { kind: 'missing' }
    : loaded?.username === username
      ? loaded.state
      : { kind: 'loading' };
  usePageTitle(username ? `@${username}` : 'Public Profile');

  useEffect(() => {
    if (!username) return;
    let live = true;
    void loadPublicProfile(username).then((data) => {
      if (live) setLoaded({ username, state: data ? { kind: 'ok', data } : { kind: 'missing' } });
    });
    return () => {
      live = false;
    };
  }, [username]);

  if (state.kind === 'loading') {
    return (
      <main className="mx-auto max-w-4xl px-4 py-12">
        <p role="status" className="text-center text-slate-500">
          Loading...
        </p>
      </main>
    );
  }
  if (state.kind === 'missing') {
    return (
      <main className="mx-auto max-w-2xl px-4 py-16 text-center">
        <h1 className="text-2xl font-bold text-slate-900">Profile Not Found</h1>
        <p className="mt-2 text-slate-600">This user profile doesn't exist or isn't public.</p>
      </main>
    );
  }
  const { profile, directories } = state.data;
  return (
    <main className="mx-auto max-w-4xl px-4 py-12">
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
    </main>
  );
}
