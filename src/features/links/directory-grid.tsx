import { Suspense, useContext, useDeferredValue, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { DirectoryRow } from '../../data/rows.ts';
import { useUserDb } from '../../data/user-db-context.ts';
import type { Tier } from '../../domain/plans.ts';
import { messages } from '../../domain/sync-codes.ts';
import { upgradePath } from '../../ui/limit-notice.tsx';
import { usePreloadWhenIdle } from '../../ui/preloadable.ts';
import { UpsellDialog } from '../../ui/upsell-dialog.tsx';
import { DirectoryCard } from './directory-card.tsx';
import { DirectoryDialog, preloadLinkDialogs } from './lazy-dialogs.ts';
import { directorySharing } from './directory-sharing.ts';
import { ImportBookmarksSlot } from './import-bookmarks-slot.ts';
import { directoryPath, matchesDirectory } from './link-filters.ts';
import type { LinkStats } from '../../data/queries/links.ts';
import { useMembersByDirectory } from './use-members-by-directory.ts';

export interface DirectoryGridProps {
  directories: DirectoryRow[] | undefined;
  stats: LinkStats | undefined;
  search: string;
  userId: string;
  userEmail: string | null;
  username: string;
  tier: Tier;
  /** Create Directory is open (the form, or at the limit the upsell). */
  creating: boolean;
  onCreatingChange(open: boolean): void;
  /**
   * The user owns as many directories as the plan allows (not canAddDirectory): Create New
   * Directory opens the upsell instead of the form. A refusal still comes from the mutator.
   */
  atLimit: boolean;
}

/** No directory selected (docs/product.md, Links screen): 'Create New Directory' plus a card per directory. */
export function DirectoryGrid(props: DirectoryGridProps) {
  const { directories, stats, userId, userEmail, username, tier, creating, onCreatingChange, atLimit } = props;
  const { db } = useUserDb();
  const members = useMembersByDirectory(db);
  const navigate = useNavigate();
  usePreloadWhenIdle(preloadLinkDialogs);
  const search = useDeferredValue(props.search);
  const [editing, setEditing] = useState<DirectoryRow | null>(null);
  const renderImport = useContext(ImportBookmarksSlot);
  // Form or upsell is decided when Create opens: a limit reached while the form is filled in
  // (a directory synced from another device) is the mutator's refusal, said in the form.
  const [upsell, setUpsell] = useState<boolean | null>(null);
  if (creating && upsell === null) setUpsell(atLimit);
  if (!creating && upsell !== null) setUpsell(null);

  if (directories === undefined) {
    return (
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-busy="true" aria-label="Loading directories">
        {[0, 1, 2].map((i) => (
          <div key={i} className="h-44 animate-pulse rounded-2xl bg-slate-200" />
        ))}
      </div>
    );
  }
  const shown = directories.filter((d) => matchesDirectory(d, search));

  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <button
          type="button"
          onClick={() => onCreatingChange(true)}
          className="flex h-full min-h-44 flex-col items-center justify-center rounded-2xl border-2 border-dashed border-slate-300 bg-surface p-6 text-center hover:border-slate-400"
        >
          <span className="text-3xl text-slate-400" aria-hidden="true">
            +
          </span>
          <span className="mt-2 font-semibold text-slate-900">Create New Directory</span>
          <span className="text-sm text-slate-600">Organize your links</span>
        </button>
        {shown.map((directory) => (
          <DirectoryCard
            key={directory.id}
            directory={directory}
            linkCount={stats?.perDirectory.get(directory.id) ?? 0}
            canEdit={directory.owner_id === userId}
            sharing={directorySharing(directory, members?.get(directory.id) ?? [], { id: userId, email: userEmail })}
            onOpen={() => navigate(directoryPath(username, directory.id))}
            onEdit={() => setEditing(directory)}
          />
        ))}
      </div>
      {stats?.owned === 0 && renderImport && (
        <div className="mt-6 rounded-2xl border border-dashed border-slate-300 bg-surface p-6 text-center text-sm text-slate-600">
          <p>No links yet? Bring your browser&apos;s bookmarks along.</p>
          <div className="mt-3">{renderImport()}</div>
        </div>
      )}
      {creating && upsell === true && (
        <UpsellDialog
          title="Create Directory"
          limit={{ message: messages.moreDirectories, upgradeTo: upgradePath(username) }}
          onClose={() => onCreatingChange(false)}
        />
      )}
      <Suspense fallback={null}>
        {creating && upsell === false && (
          <DirectoryDialog directory={null} tier={tier} onClose={() => onCreatingChange(false)} />
        )}
        {editing && (
          <DirectoryDialog
            key={editing.id}
            directory={editing}
            tier={tier}
            onClose={() => setEditing(null)}
            onDeleted={() => setEditing(null)}
          />
        )}
      </Suspense>
    </>
  );
}
