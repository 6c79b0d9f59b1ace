import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useCurrentUser } from '../../../backend/current-user-store.ts';
import type { LinkboardDb } from '../../../data/db.ts';
import { useDirectories } from '../../../data/queries/directories.ts';
import type { MemberRow } from '../../../data/rows.ts';
import { useUserDb } from '../../../data/user-db-context.ts';
import { underLimit } from '../../../domain/limits.ts';
import { tierOf } from '../../../domain/plans.ts';
import { messages } from '../../../domain/sync-codes.ts';
import { useLinkStats } from '../../../data/queries/links.ts';
import { upgradePath } from '../../../ui/limit-notice.tsx';
import { Button } from '../../../ui/button.tsx';
import { EmptyState } from '../../../ui/empty-state.tsx';
import { usePageTitle } from '../../../ui/page-title.ts';
import { PAGES } from '../../../domain/pages.ts';
import { ScreenHeader } from '../../../ui/screen-header.tsx';
import { DirectoryDialog } from '../directory-dialog.tsx';
import { LinkDialog } from '../link-dialog.tsx';
import { directoryPath } from '../link-filters.ts';
import { ONLY_WEB_PAGES, sharedPage } from './shared-page.ts';
import { lastUsedDirectory, rememberDirectory, saveTargets } from './save-targets.ts';

/** The user's memberships of shared directories. Undefined while loading. */
function useMemberships(db: LinkboardDb, email: string | null): MemberRow[] | undefined {
  const normalized = (email ?? '').trim().toLowerCase();
  return useLiveQuery(() => db.directory_members.where('user_email').equals(normalized).toArray(), [db, normalized]);
}

/**
 * /share-target (manifest `share_target`): a page shared from another app opens Add Link
 * prefilled, with a choice of directory. Saving queues link.create like any other change, so it
 * works offline; the user lands in the directory they saved to.
 */
export function ShareTargetPage() {
  const user = useCurrentUser((state) => state.user);
  const { db } = useUserDb();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const shared = useMemo(() => sharedPage(params), [params]);
  const directories = useDirectories(db);
  const memberships = useMemberships(db, user?.email ?? null);
  const stats = useLinkStats(db, user?.id ?? '');
  const [chosen, setChosen] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  usePageTitle(PAGES.shareTarget.title);
  if (!user) return null;

  const tier = tierOf(user.subscription_tier);
  const username = user.username ?? '';
  const leave = () => navigate(`/Links/${username}`, { replace: true });
  const fromAnotherApp = shared.url !== '' || shared.title !== '';
  const header = (
    <ScreenHeader
      title="Add Link"
      subtitle={fromAnotherApp ? 'Save a page shared from another app' : 'Save a link to one of your directories'}
    />
  );
  // A browser's own page (chrome:, file:, about:, data:) from the extension or the bookmarklet:
  // said, and nothing offered to save (docs/product.md, Browser extension and bookmarklet).
  if (shared.refused) {
    return (
      <>
        {header}
        <EmptyState title="This page cannot be saved">
          <p role="alert">{ONLY_WEB_PAGES}</p>
          <div className="mt-4 flex justify-center">
            <Button variant="secondary" onClick={leave}>
              Back to Links
            </Button>
          </div>
        </EmptyState>
      </>
    );
  }
  if (directories === undefined || memberships === undefined) return header;

  const targets = saveTargets(directories, memberships, { id: user.id, tier });
  if (targets.length === 0) {
    return (
      <>
        {header}
        <EmptyState title="Create a directory first">
          <p>Links live in directories. Create one to save {shared.title || shared.url || 'this page'} in.</p>
          <div className="mt-4 flex justify-center gap-3">
            <Button variant="secondary" onClick={leave}>
              Cancel
            </Button>
            <Button onClick={() => setCreating(true)}>Create Directory</Button>
          </div>
        </EmptyState>
        {creating && <DirectoryDialog directory={null} tier={tier} onClose={() => setCreating(false)} />}
      </>
    );
  }

  const ids = targets.map((t) => t.directory.id);
  const remembered = lastUsedDirectory(user.id);
  const directoryId = [chosen, remembered].find((id) => id !== null && ids.includes(id)) ?? ids[0]!;
  // The user's own directory while their links are used up: the limit is said before the fields.
  const full =
    targets.find((t) => t.directory.id === directoryId)?.owned === true &&
    stats !== undefined &&
    !underLimit(tier, 'links', stats.owned);
  const chooser = (
    <label className="block text-sm font-medium text-slate-800">
      Directory
      <select
        className="mt-1 w-full rounded-lg border border-slate-300 bg-surface px-3 py-2"
        value={directoryId}
        onChange={(e) => setChosen(e.target.value)}
      >
        {targets.map(({ directory, owned }) => (
          <option key={directory.id} value={directory.id}>
            {owned ? directory.name : `${directory.name} (shared)`}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <>
      {header}
      <LinkDialog
        directoryId={directoryId}
        link={null}
        tier={tier}
        initial={shared}
        chooser={chooser}
        limit={full ? { message: messages.moreLinks, upgradeTo: upgradePath(username) } : null}
        onClose={leave}
        // Following 'Already saved in …' leaves this page for that directory: nothing to close.
        onFollow={() => undefined}
        onSaved={(saved) => {
          rememberDirectory(user.id, saved.directoryId);
          navigate(directoryPath(username, saved.directoryId), { replace: true });
        }}
      />
    </>
  );
}
