import { useState, type FormEvent } from 'react';
import type { DirectoryRow } from '../../data/rows.ts';
import { useUserDb } from '../../data/user-db-context.ts';
import type { Tier } from '../../domain/plans.ts';
import { messages } from '../../domain/sync-codes.ts';
import { isEmail, type MemberRole } from '../../domain/validation.ts';
import { FormActions, FormDialog, RefusalAlert, useRefusal } from '../../ui/form-dialog.tsx';
import { toast } from '../../ui/toast-store.ts';

export interface InviteDialogProps {
  directory: DirectoryRow;
  /** The inviting owner (they cannot invite themselves; Editor needs a paid plan). */
  user: { email: string | null; tier: Tier };
  onClose(): void;
}

export const EDITOR_UPSELL = 'Upgrade to Pro to invite editors who can add and manage links.';

/**
 * Invite to Directory (docs/product.md, Links screen; Validation; Roles and permissions): e-mail and role (Viewer by default; Editor on Pro and
 * Team only). The invite is queued like any change, so it works offline; the server mails the
 * invitation when it applies the invite (docs/product.md, Decisions), never for a refused one.
 */
export function InviteDialog({ directory, user, onClose }: InviteDialogProps) {
  const { mutate } = useUserDb();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<MemberRole>('viewer');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const { refusal, show: refuse, clear: clearRefusal } = useRefusal();
  const paid = user.tier !== 'free';

  function check(value: string): string | null {
    const trimmed = value.trim();
    if (trimmed === '') return 'Email is required.';
    if (!isEmail(trimmed)) return messages.memberEmail;
    if (user.email && trimmed.toLowerCase() === user.email.toLowerCase()) return 'You cannot invite yourself.';
    return null;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = check(email);
    if (problem) {
      setError(problem);
      return;
    }
    setSaving(true);
    clearRefusal();
    const to = email.trim().toLowerCase();
    const id = crypto.randomUUID();
    let queued = null;
    try {
      // A refusal (e.g. already a member) is shown in the dialog with the mutator's message.
      queued = await mutate('member.invite', { id, directory_id: directory.id, user_email: to, role }, refuse);
    } catch (failure) {
      // docs/product.md, Error messages: invite failures are logged only.
      console.error('Invite failed', failure);
    }
    if (queued) {
      toast(`Invitation sent to ${to}!`, 'success');
      onClose();
      return;
    }
    setSaving(false);
  }

  return (
    <FormDialog
      title="Invite to Directory"
      description={`Share “${directory.name}” with someone by e-mail.`}
      onClose={onClose}
    >
      <form className="mt-4 space-y-4" onSubmit={(e) => void submit(e)} noValidate>
        <label className="block text-sm font-medium text-slate-800">
          Email
          <input
            type="email"
            autoComplete="email"
            className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2"
            value={email}
            required
            aria-invalid={error !== null}
            aria-describedby={error ? 'invite-email-error' : undefined}
            onChange={(e) => {
              setEmail(e.target.value);
              setError(null);
            }}
          />
        </label>
        {error && (
          <p id="invite-email-error" role="alert" className="text-sm text-red-700 dark:text-red-300">
            {error}
          </p>
        )}
        <label className="block text-sm font-medium text-slate-800">
          Role
          <select
            className="mt-1 w-full rounded-lg border border-slate-300 bg-surface px-3 py-2"
            value={role}
            onChange={(e) => setRole(e.target.value === 'editor' && paid ? 'editor' : 'viewer')}
            aria-describedby={paid ? undefined : 'invite-editor-upsell'}
          >
            <option value="viewer">Viewer</option>
            <option value="editor" disabled={!paid}>
              {paid ? 'Editor' : 'Editor - Pro feature'}
            </option>
          </select>
        </label>
        {!paid && (
          <p id="invite-editor-upsell" className="text-sm text-amber-800 dark:text-amber-200">
            {EDITOR_UPSELL}
          </p>
        )}
        <RefusalAlert refusal={refusal} />
        <FormActions submit="Send Invite" busy={saving} onCancel={onClose} />
      </form>
    </FormDialog>
  );
}
