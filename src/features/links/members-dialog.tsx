import * as Dialog from '@radix-ui/react-dialog';
import { useLiveQuery } from 'dexie-react-hooks';
import { useState } from 'react';
import type { LinkboardDb } from '../../data/db.ts';
import type { DirectoryRow, MemberRow } from '../../data/rows.ts';
import { useUserDb } from '../../data/user-db-context.ts';
import type { Tier } from '../../domain/plans.ts';
import { messages } from '../../domain/sync-codes.ts';
import type { MemberRole } from '../../domain/validation.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { RefusalAlert, useRefusal } from '../../ui/form-dialog.tsx';
import { toast } from '../../ui/toast-store.ts';

export interface MembersDialogProps {
  directory: DirectoryRow;
  /** canManageMembers: only the owner changes roles and removes members. */
  canManage: boolean;
  tier: Tier;
  onClose(): void;
}

type MemberList = { state: 'loading' } | { state: 'error' } | { state: 'ready'; members: MemberRow[] };

/** The directory's members by e-mail; a failing query becomes an error state (useLiveQuery would throw). */
export function useMemberList(db: LinkboardDb, directoryId: string): MemberList {
  const result = useLiveQuery(
    () =>
      db.directory_members
        .where('directory_id')
        .equals(directoryId)
        .sortBy('user_email')
        .then(
          (members): MemberList => ({ state: 'ready', members }),
          (): MemberList => ({ state: 'error' }),
        ),
    [db, directoryId],
  );
  return result ?? { state: 'loading' };
}

const roleLabel = (role: MemberRole) => (role === 'editor' ? 'Editor' : 'Viewer');

/**
 * Manage Members (docs/product.md, Links screen; Calendar; Roles and permissions; Error messages): the members and their roles; the owner changes a role
 * (Editor on Pro and Team only) and removes a member after confirming. Others see the list
 * read only.
 */
export function MembersDialog({ directory, canManage, tier, onClose }: MembersDialogProps) {
  const { db, mutate } = useUserDb();
  const list = useMemberList(db, directory.id);
  const [removing, setRemoving] = useState<MemberRow | null>(null);
  const paid = tier !== 'free';
  const { refusal, show: refuse, clear: clearRefusal } = useRefusal();

  async function setRole(member: MemberRow, role: MemberRole) {
    if (role === member.role) return;
    clearRefusal();
    try {
      // A refusal ('Upgrade to Pro to assign the Editor role.') is shown in the dialog.
      await mutate('member.set_role', { id: member.id, role }, refuse);
    } catch {
      toast('Failed to update role. Please try again.', 'error');
    }
  }

  async function confirmRemove() {
    if (!removing) return;
    const id = removing.id;
    setRemoving(null);
    clearRefusal();
    try {
      await mutate('member.remove', { id }, refuse);
    } catch {
      toast('Failed to remove member. Please try again.', 'error');
    }
  }

  return (
    <>
      <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
        <Dialog.Portal>
          <Dialog.Overlay className="fixed inset-0 z-dialog bg-black/40" />
          <Dialog.Content className="fixed top-1/2 left-1/2 z-dialog max-h-[90vh] w-[min(34rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-surface p-6 shadow-xl">
            <Dialog.Title className="text-lg font-semibold text-slate-900">Manage Members</Dialog.Title>
            <Dialog.Description className="mt-1 text-sm text-slate-600">
              People who can see “{directory.name}”.
            </Dialog.Description>
            {!canManage && (
              <p role="note" className="mt-3 rounded-lg bg-slate-100 px-3 py-2 text-sm text-slate-700">
                {messages.ownerOnly}
              </p>
            )}
            <div className="mt-4">
              {list.state === 'loading' ? (
                <p aria-busy="true" className="text-sm text-slate-600">
                  Loading members...
                </p>
              ) : list.state === 'error' ? (
                <p role="alert" className="text-sm text-red-700 dark:text-red-300">
                  Failed to load members
                </p>
              ) : list.members.length === 0 ? (
                <p className="text-sm text-slate-600">No members yet. Use Invite to add collaborators.</p>
              ) : (
                <ul className="divide-y divide-slate-200" aria-label="Members">
                  {list.members.map((member) => (
                    <li key={member.id} className="flex flex-wrap items-center gap-3 py-3">
                      <span className="min-w-0 flex-1 truncate text-sm text-slate-900">{member.user_email}</span>
                      {canManage ? (
                        <select
                          aria-label={`Role for ${member.user_email}`}
                          className="rounded-lg border border-slate-300 bg-surface px-2 py-1 text-sm"
                          value={member.role}
                          onChange={(e) => void setRole(member, e.target.value as MemberRole)}
                        >
                          <option value="viewer">Viewer</option>
                          <option value="editor" disabled={!paid}>
                            {paid ? 'Editor' : 'Editor - Pro feature'}
                          </option>
                        </select>
                      ) : (
                        <span className="text-sm text-slate-700">{roleLabel(member.role)}</span>
                      )}
                      <Button
                        variant="ghost"
                        className="text-red-700 dark:text-red-300"
                        disabled={!canManage}
                        aria-label={`Remove ${member.user_email}`}
                        onClick={() => setRemoving(member)}
                      >
                        Remove
                      </Button>
                    </li>
                  ))}
                </ul>
              )}
            </div>
            {canManage && !paid && (
              <p className="mt-3 text-sm text-amber-800 dark:text-amber-200">
                Upgrade to Pro to invite editors who can add and manage links.
              </p>
            )}
            <div className="mt-3">
              <RefusalAlert refusal={refusal} />
            </div>
            <div className="mt-6 flex justify-end">
              <Button variant="secondary" onClick={onClose}>
                Close
              </Button>
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
      <ConfirmDialog
        open={removing !== null}
        title="Remove Member"
        message={`Remove ${removing?.user_email ?? ''} from this directory? They will lose access.`}
        confirmLabel="Remove"
        tone="danger"
        onConfirm={() => void confirmRemove()}
        onCancel={() => setRemoving(null)}
      />
    </>
  );
}
