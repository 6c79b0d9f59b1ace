import { useState } from 'react';
import { Navigate, useParams, useSearchParams } from 'react-router-dom';
import { useCurrentUser } from '../../backend/current-user-store.ts';
import { useDirectories } from '../../data/queries/directories.ts';
import { useUserDb } from '../../data/user-db-context.ts';
import { directoryPermissions } from '../../domain/permissions.ts';
import { tierOf } from '../../domain/plans.ts';
import { Button } from '../../ui/button.tsx';
import { usePageTitle } from '../../ui/page-title.ts';
import { useScreenShown } from '../../ui/screen-shown.ts';
import { PAGES } from '../../domain/pages.ts';
import { ScreenHeader } from '../../ui/screen-header.tsx';
import { DirectoryGrid } from './directory-grid.tsx';
import { DirectoryView } from './directory-view.tsx';
import { LinkLimitBadge, LinkLimitWarning } from './link-limit-notice.tsx';
import { SearchInput } from './search-input.tsx';
import { BrokenLinksList } from './broken-links.tsx';
import { useLinkStats, useOwnerLinkCount } from '../../data/queries/links.ts';

/** The Links screen (docs/product.md, Links screen): the directory grid, or one directory's links. */
export function LinksPage() {
  const params = useParams();
  const [query] = useSearchParams();
  const dirId = params.dirId ?? query.get('dirId');
  const user = useCurrentUser((state) => state.user);
  const { db } = useUserDb();
  const directories = useDirectories(db);
  const tier = tierOf(user?.subscription_tier);
  // The grid's counts: every directory's (read again on each beat of a burst of saves). A directory's
  // screen needs only the user's own count, and only where their plan limits it (Free: the badge,
  // the warning, Add Link): a Pro user's burst of saves into it re-renders nothing for it.
  const stats = useLinkStats(db, dirId || !user ? null : user.id);
  const ownedHere = useOwnerLinkCount(db, dirId && user && tier === 'free' ? user.id : null);
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const [brokenOnly, setBrokenOnly] = useState(false);
  usePageTitle(PAGES.links.title);
  // The directories' grid (a directory's own view says so itself).
  useScreenShown(!dirId && directories !== undefined);
  // The dashboard's Quick Add 'Add Link': Add Link with a choice of directory (the share target's page).
  if (query.get('new') === 'link') return <Navigate to="/share-target" replace />;
  if (!user) return null;
  const username = user.username ?? '';
  const owned = stats?.owned ?? 0;

  if (dirId) {
    return (
      <DirectoryView
        key={dirId}
        dirId={dirId}
        directory={directories === undefined ? undefined : (directories.find((d) => d.id === dirId) ?? null)}
        user={{ id: user.id, email: user.email, username, tier }}
        ownedLinks={ownedHere ?? 0}
      />
    );
  }

  const flags = directoryPermissions({
    userId: user.id,
    tier,
    directory: null,
    role: null,
    ownedDirectoryCount: stats?.ownedDirectories ?? 0,
    linkCount: owned,
  });
  return (
    <>
      <ScreenHeader
        title="My Links"
        subtitle="Save and organize all your important links"
        actions={
          <div className="flex items-center gap-3">
            <LinkLimitBadge tier={tier} count={owned} />
            {flags.canAddDirectory && <Button onClick={() => setCreating(true)}>New Directory</Button>}
          </div>
        }
      />
      <LinkLimitWarning tier={tier} count={owned} />
      <div className="mb-6 flex flex-wrap items-center gap-3">
        <div className="min-w-0 flex-1">
          <SearchInput value={search} onChange={setSearch} />
        </div>
        {/* The weekly broken-link check is Pro and Team's (docs/product.md, Broken links). */}
        {tier !== 'free' && (
          <Button variant="secondary" aria-pressed={brokenOnly} onClick={() => setBrokenOnly((on) => !on)}>
            Broken links
          </Button>
        )}
      </div>
      {brokenOnly && tier !== 'free' ? (
        <BrokenLinksList directories={directories} username={username} />
      ) : (
        <DirectoryGrid
          directories={directories}
          stats={stats}
          search={search}
          userId={user.id}
          userEmail={user.email}
          username={username}
          tier={tier}
          creating={creating}
          onCreatingChange={setCreating}
          atLimit={!flags.canAddDirectory}
        />
      )}
    </>
  );
}
