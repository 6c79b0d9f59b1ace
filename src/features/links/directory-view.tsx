import { Suspense, useCallback, useContext, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useMembers } from '../../data/queries/directories.ts';
import { LINK_PAGE, useLinkWindow } from '../../data/queries/link-window.ts';
import { searchCapText } from './link-filters.ts';
import type { DirectoryRow, LinkRow } from '../../data/rows.ts';
import { useUserDb } from '../../data/user-db-context.ts';
import { directoryPermissions } from '../../domain/permissions.ts';
import { tierOf, type Tier } from '../../domain/plans.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { ScreenHeader } from '../../ui/screen-header.tsx';
import { upgradePath } from '../../ui/limit-notice.tsx';
import { toast } from '../../ui/toast-store.ts';
import { useScreenShown } from '../../ui/screen-shown.ts';
import { usePreloadWhenIdle } from '../../ui/preloadable.ts';
import { LinkCollection } from './link-collection.tsx';
import { DirectoryDialog, InviteDialog, LinkDialog, MembersDialog, preloadLinkDialogs } from './lazy-dialogs.ts';
import { DirectoryToolbar } from './directory-toolbar.tsx';
import { LinkLimitWarning } from './link-limit-notice.tsx';
import { SearchInput } from './search-input.tsx';
import { ImportBookmarksSlot } from './import-bookmarks-slot.ts';
import { TeamPollsSlot } from './team-polls-slot.ts';
import { useOwnerLinkCount } from '../../data/queries/links.ts';

export interface DirectoryViewProps {
  dirId: string;
  /** Undefined while loading, null when the user has no such directory. */
  directory: DirectoryRow | null | undefined;
  user: { id: string; email: string | null; username: string; tier: Tier };
  /** Links the user owns, where their plan limits them (Free); 0 on another plan, where no count shows. */
  ownedLinks: number;
}

type Tab = 'links' | 'polls';
const tabClass = (active: boolean) =>
  `border-b-2 px-4 py-2 text-sm font-medium ${active ? 'border-brand-600 text-slate-900' : 'border-transparent text-slate-600'}`;

/** One directory's links (docs/product.md, Links screen). */
export function DirectoryView({ dirId, directory, user, ownedLinks }: DirectoryViewProps) {
  const { db, mutate } = useUserDb();
  const navigate = useNavigate();
  usePreloadWhenIdle(preloadLinkDialogs);
  const members = useMembers(db, dirId);
  const owner = directory?.owner_id === user.id;
  // The badge and limits are the owner's plan's (docs/product.md, Plans and limits): another owner's plan comes with
  // the directory row (owner_tier); until it does, no plan badge.
  const ownerLinks = useOwnerLinkCount(db, owner ? null : (directory?.owner_id ?? null));
  const othersTier = directory?.owner_tier && ownerLinks !== undefined ? tierOf(directory.owner_tier) : null;
  const ownerTier: Tier | null = owner ? user.tier : othersTier;
  const limitCount = owner ? ownedLinks : (ownerLinks ?? 0);
  const [search, setSearch] = useState('');
  // The search box has the focus: what a search reads once is read before the first key.
  const [searchFocused, setSearchFocused] = useState(false);
  const [view, setView] = useState<'grid' | 'list'>('grid');
  const [tab, setTab] = useState<Tab>('links');
  const [editing, setEditing] = useState<LinkRow | 'new' | null>(null);
  const closeEditor = useCallback(() => setEditing(null), []);
  const [deleting, setDeleting] = useState<LinkRow | null>(null);
  const [settings, setSettings] = useState(false);
  const [sharing, setSharing] = useState<'members' | 'invite' | null>(null);
  // Only the links in view are read (through an index); a search reads a directory of up to IN_MEMORY_MAX links once,
  // a long one's first matches through the token index (link-window.ts). A key's matches are rendered with the key,
  // not deferred to a later task: matched in memory they cost a few milliseconds, and a deferred render is one more
  // task between the key and its frame.
  const [range, setRange] = useState({ start: 0, end: LINK_PAGE });
  const onRange = useCallback(
    (start: number, end: number) =>
      setRange((previous) => (previous.start === start && previous.end === end ? previous : { start, end })),
    [],
  );
  const links = useLinkWindow(db, dirId, search, range, searchFocused);
  useScreenShown(links !== undefined && directory !== undefined);
  const back = () => navigate(`/Links/${user.username}`);
  const renderTeamPolls = useContext(TeamPollsSlot);
  const renderImport = useContext(ImportBookmarksSlot);

  if (directory === null) {
    return (
      <>
        <Button variant="ghost" onClick={back}>
          ← Back
        </Button>
        <EmptyState title="This directory is not available">
          It may be private or you don't have access. Ask the owner to make it public or invite you.
        </EmptyState>
      </>
    );
  }

  const role = members?.find((m) => m.user_email.toLowerCase() === (user.email ?? '').toLowerCase())?.role ?? null;
  const flags = directoryPermissions({
    userId: user.id,
    tier: user.tier,
    directory: directory ?? null,
    role,
    ownedDirectoryCount: 0,
    linkCount: ownedLinks,
  });
  const name = directory?.name ?? '';
  /** The owner on Free at 30 links: Add Link shows disabled with the message of docs/product.md. */
  const atLimit = flags.canEditSelected && !flags.canAddLink;

  async function confirmDelete() {
    if (!deleting) return;
    const id = deleting.id;
    setDeleting(null);
    try {
      await mutate('link.delete', { id });
    } catch {
      toast('Failed to delete link. Please try again.', 'error');
    }
  }

  return (
    <>
      <Button variant="ghost" className="mb-2 -ml-2" onClick={back} aria-label="Back to directories">
        ← Back
      </Button>
      <ScreenHeader
        title={name}
        subtitle={`Organize your ${name.toLowerCase()} links`}
        actions={
          <DirectoryToolbar
            linkCount={links?.count ?? 0}
            limit={{ tier: ownerTier, count: limitCount }}
            // Members: anyone signed in who can see the directory may look; only the owner
            // (canManageMembers) changes roles or removes, others see the list read only.
            onMembers={directory ? () => setSharing('members') : undefined}
            onInvite={flags.canInviteToSelected && directory ? () => setSharing('invite') : undefined}
            onSettings={flags.canEditSelected ? () => setSettings(true) : undefined}
            onAddLink={flags.canAddLink ? () => setEditing('new') : undefined}
            atLimit={atLimit}
            upgradeTo={upgradePath(user.username)}
          />
        }
      />
      <LinkLimitWarning tier={ownerTier} count={limitCount} owner={owner} />
      <div role="tablist" className="mb-4 flex border-b border-slate-200">
        <button
          type="button"
          role="tab"
          aria-selected={tab === 'links'}
          className={tabClass(tab === 'links')}
          onClick={() => setTab('links')}
        >
          Links
        </button>
        <button
          type="button"
          role="tab"
          aria-selected={tab === 'polls'}
          className={tabClass(tab === 'polls')}
          onClick={() => setTab('polls')}
        >
          Team Polls
        </button>
      </div>
      {tab === 'polls' ? (
        ownerTier !== null &&
        renderTeamPolls?.({
          directoryId: dirId,
          tier: ownerTier,
          username: user.username,
          canCreate: ownerTier === 'team',
        })
      ) : (
        <>
          <div className="mb-4 flex items-center justify-between gap-3">
            <SearchInput value={search} onChange={setSearch} onFocusChange={setSearchFocused} />
            <div className="flex shrink-0 rounded-lg border border-slate-300" role="group" aria-label="View">
              <button
                type="button"
                aria-pressed={view === 'grid'}
                className={`px-3 py-1.5 text-sm ${view === 'grid' ? 'bg-slate-100' : ''}`}
                onClick={() => setView('grid')}
              >
                Grid<span className="sr-only sm:not-sr-only"> view</span>
              </button>
              <button
                type="button"
                aria-pressed={view === 'list'}
                className={`px-3 py-1.5 text-sm ${view === 'list' ? 'bg-slate-100' : ''}`}
                onClick={() => setView('list')}
              >
                List<span className="sr-only sm:not-sr-only"> view</span>
              </button>
            </div>
          </div>
          {links === undefined || directory === undefined ? (
            <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-busy="true" aria-label="Loading links">
              {[0, 1, 2, 3, 4, 5].map((i) => (
                <div key={i} className="h-36 animate-pulse rounded-2xl bg-slate-200" />
              ))}
            </div>
          ) : links.count === 0 ? (
            <EmptyState title="No Links Yet">
              Start building your collection by adding your first link!
              {owner && renderImport && <div className="mt-4">{renderImport()}</div>}
            </EmptyState>
          ) : links.shown.total === 0 ? (
            <EmptyState title="No matching links">Try another search.</EmptyState>
          ) : (
            <>
              {links.more && (
                <p className="mb-3 text-sm text-slate-600" role="status">
                  {searchCapText(links.shown.total)}
                </p>
              )}
              <LinkCollection
                links={links.shown}
                held={links.held}
                onRange={onRange}
                view={view}
                canEdit={flags.canEditLinks}
                onEdit={setEditing}
                onDelete={setDeleting}
              />
            </>
          )}
        </>
      )}
      {/* A dialog asked for before its chunk is in opens a moment later (lazy-dialogs.ts). */}
      <Suspense fallback={null}>
        {editing !== null && (
          <LinkDialog
            key={editing === 'new' ? 'new' : editing.id}
            directoryId={dirId}
            link={editing === 'new' ? null : editing}
            tier={user.tier}
            onClose={closeEditor}
          />
        )}
        {sharing === 'members' && directory && (
          <MembersDialog
            directory={directory}
            canManage={flags.canManageMembers}
            tier={user.tier}
            onClose={() => setSharing(null)}
          />
        )}
        {sharing === 'invite' && directory && (
          <InviteDialog directory={directory} user={user} onClose={() => setSharing(null)} />
        )}
        {settings && directory && (
          <DirectoryDialog directory={directory} tier={user.tier} onClose={() => setSettings(false)} onDeleted={back} />
        )}
      </Suspense>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete Link"
        message={`Are you sure you want to delete "${deleting?.title ?? ''}"? This action cannot be undone.`}
        confirmLabel="Delete"
        tone="danger"
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      />
    </>
  );
}
