import { useState, type FormEvent } from 'react';
import { useUserDb } from '../../data/user-db-context.ts';
import type { DirectoryRow } from '../../data/rows.ts';
import type { Tier } from '../../domain/plans.ts';
import { directoryColors, isBlank, type DirectoryColor } from '../../domain/validation.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { FormActions, FormDialog, RefusalAlert, useRefusal } from '../../ui/form-dialog.tsx';
import { toast } from '../../ui/toast-store.ts';
import { gradientOf } from '../../ui/directory-colors.ts';

export interface DirectoryDialogProps {
  /** The directory to edit, or null to create one. */
  directory: DirectoryRow | null;
  tier: Tier;
  onClose(): void;
  /**
   * Offers Delete (with a confirmation) for the edited directory, which the user owns; called
   * once it is deleted.
   */
  onDeleted?(): void;
}

/** Create Directory / Edit Directory (docs/product.md, Links screen; Validation): name required, six colours, public, password. */
export function DirectoryDialog({ directory, tier, onClose, onDeleted }: DirectoryDialogProps) {
  const { mutate } = useUserDb();
  const [name, setName] = useState(directory?.name ?? '');
  const [description, setDescription] = useState(directory?.description ?? '');
  const [color, setColor] = useState<DirectoryColor>(
    directory && directoryColors.includes(directory.color) ? directory.color : 'blue',
  );
  const [isPublic, setIsPublic] = useState(directory?.is_public ?? false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const { refusal, show: refuse, clear: clearRefusal } = useRefusal();
  const paid = tier !== 'free';

  async function confirmDelete() {
    setDeleting(false);
    if (!directory || !onDeleted) return;
    if (await mutate('directory.delete', { id: directory.id })) onDeleted();
  }

  function togglePublic(next: boolean) {
    setIsPublic(next);
    if (!next) setPassword('');
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (isBlank(name)) {
      setError('Name is required.');
      return;
    }
    setSaving(true);
    clearRefusal();
    const fields = { name: name.trim(), description: description.trim() || null, color, is_public: isPublic };
    let passwordField: { password?: string | null } = {};
    if (!isPublic) passwordField = directory?.has_password || !directory ? { password: null } : {};
    else if (paid && password !== '') passwordField = { password };
    let result = null;
    try {
      result = directory
        ? await mutate('directory.update', { id: directory.id, ...fields, ...passwordField }, refuse)
        : await mutate('directory.create', { id: crypto.randomUUID(), ...fields, ...passwordField }, refuse);
    } catch {
      toast(`Failed to ${directory ? 'update' : 'create'} directory. Please try again.`, 'error');
    }
    setSaving(false);
    if (result) onClose();
  }

  const title = directory ? 'Edit Directory' : 'Create Directory';
  return (
    <FormDialog title={title} description="Group related links in a directory." onClose={onClose}>
      <form className="mt-4 space-y-4" onSubmit={(e) => void submit(e)} noValidate>
        <label className="block text-sm font-medium text-slate-800">
          Name
          <input
            className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2"
            value={name}
            required
            aria-invalid={error !== null}
            onChange={(e) => {
              setName(e.target.value);
              setError(null);
            }}
          />
        </label>
        {error && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {error}
          </p>
        )}
        <label className="block text-sm font-medium text-slate-800">
          Description
          <textarea
            className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2"
            rows={2}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </label>
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">Color</legend>
          <div className="mt-2 flex gap-2">
            {directoryColors.map((c) => (
              <button
                key={c}
                type="button"
                aria-label={c}
                aria-pressed={color === c}
                onClick={() => setColor(c)}
                className={`h-8 w-8 rounded-full bg-gradient-to-br ${gradientOf(c)} ${color === c ? 'ring-2 ring-slate-900 ring-offset-2' : ''}`}
              />
            ))}
          </div>
        </fieldset>
        <label className="flex items-center justify-between text-sm font-medium text-slate-800">
          Public directory
          <input
            type="checkbox"
            role="switch"
            aria-checked={isPublic}
            checked={isPublic}
            onChange={(e) => togglePublic(e.target.checked)}
            className="h-5 w-5"
          />
        </label>
        {isPublic && paid && (
          <label className="block text-sm font-medium text-slate-800">
            Password (optional)
            <input
              type="password"
              autoComplete="new-password"
              className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2"
              value={password}
              placeholder={directory?.has_password ? 'Leave empty to keep the current password' : ''}
              onChange={(e) => setPassword(e.target.value)}
            />
          </label>
        )}
        {isPublic && !paid && (
          <p className="text-xs text-slate-600">Password-protected directories are a Pro feature.</p>
        )}
        <RefusalAlert refusal={refusal} />
        <FormActions
          submit={directory ? 'Save Changes' : 'Create Directory'}
          busy={saving}
          onCancel={onClose}
          start={
            directory &&
            onDeleted && (
              <Button
                variant="ghost"
                className="mr-auto text-red-700 dark:text-red-300"
                onClick={() => setDeleting(true)}
              >
                Delete
              </Button>
            )
          }
        />
      </form>
      <ConfirmDialog
        open={deleting}
        title="Delete Directory"
        message={`Are you sure you want to delete "${directory?.name ?? ''}"? Its links will be deleted too. This action cannot be undone.`}
        confirmLabel="Delete"
        tone="danger"
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(false)}
      />
    </FormDialog>
  );
}
