import * as Dialog from '@radix-ui/react-dialog';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { LinkRow } from '../../data/rows.ts';
import { useUserDb } from '../../data/user-db-context.ts';
import type { Tier } from '../../domain/plans.ts';
import { isBlank, normalizeUrl } from '../../domain/validation.ts';
import { Button } from '../../ui/button.tsx';
import { toast } from '../../ui/toast-store.ts';
import { TagInput } from './tag-input.tsx';

export interface LinkDialogProps {
  directoryId: string;
  /** The link to edit, or null to add one. */
  link: LinkRow | null;
  tier: Tier;
  onClose(): void;
  /** Starting values of a new link (a page shared from another app). */
  initial?: { url?: string; title?: string };
  /** Shown above the fields, for example a choice of directory. */
  chooser?: ReactNode;
  /** Called after a successful save instead of onClose. */
  onSaved?(saved: { id: string; directoryId: string }): void;
}

interface Errors {
  url?: string;
  title?: string;
}

function validate(url: string, title: string): { errors: Errors; normalized: string | null } {
  const errors: Errors = {};
  let normalized: string | null = null;
  if (isBlank(url)) errors.url = 'URL is required.';
  else {
    normalized = normalizeUrl(url);
    if (normalized === null) errors.url = 'Only http and https links can be saved.';
  }
  if (isBlank(title)) errors.title = 'Title is required.';
  return { errors, normalized };
}

const input = 'mt-1 w-full rounded-lg border border-slate-300 px-3 py-2';

/** Add Link / Edit Link (spec 2.6, 5). Tags and the favourite star are for Pro and Team. */
export function LinkDialog({ directoryId, link, tier, onClose, initial, chooser, onSaved }: LinkDialogProps) {
  const { mutate } = useUserDb();
  const [url, setUrl] = useState(link?.url ?? initial?.url ?? '');
  const [title, setTitle] = useState(link?.title ?? initial?.title ?? '');
  const [notes, setNotes] = useState(link?.notes ?? '');
  const [tags, setTags] = useState<string[]>(link?.tags ?? []);
  const [favorite, setFavorite] = useState(link?.is_favorite ?? false);
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);
  const paid = tier !== 'free';

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = validate(url, title);
    setErrors(checked.errors);
    if (checked.normalized === null || checked.errors.title) return;
    setSaving(true);
    const fields = { url: checked.normalized, title: title.trim(), notes: notes.trim() || null };
    const extra = paid ? { tags } : {};
    let ok = false;
    let id = link?.id ?? '';
    try {
      if (link) {
        ok = (await mutate('link.update', { id: link.id, ...fields, ...extra })) !== null;
        if (ok && paid && favorite !== link.is_favorite) {
          ok = (await mutate('link.set_favorite', { id: link.id, value: favorite })) !== null;
        }
      } else {
        id = crypto.randomUUID();
        const args = { id, directory_id: directoryId, ...fields, ...extra };
        ok = (await mutate('link.create', paid ? { ...args, is_favorite: favorite } : args)) !== null;
      }
    } catch {
      toast('Failed to save link. Please try again.', 'error');
    }
    setSaving(false);
    if (ok && onSaved) onSaved({ id, directoryId: link?.directory_id ?? directoryId });
    else if (ok) onClose();
  }

  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/40" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[min(30rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-xl">
          <div className="flex items-start justify-between gap-4">
            <Dialog.Title className="text-lg font-semibold text-slate-900">
              {link ? 'Edit Link' : 'Add Link'}
            </Dialog.Title>
            {paid && (
              <button
                type="button"
                aria-label={favorite ? 'Remove from favorites' : 'Add to favorites'}
                aria-pressed={favorite}
                onClick={() => setFavorite(!favorite)}
                className={`text-2xl leading-none ${favorite ? 'text-amber-500' : 'text-slate-300'}`}
              >
                ★
              </button>
            )}
          </div>
          <Dialog.Description className="mt-1 text-sm text-slate-600">
            Save a link to this directory.
          </Dialog.Description>
          <form className="mt-4 space-y-4" onSubmit={(e) => void submit(e)} noValidate>
            {chooser}
            <label className="block text-sm font-medium text-slate-800">
              URL
              <input
                className={input}
                value={url}
                inputMode="url"
                placeholder="example.com"
                aria-invalid={!!errors.url}
                onChange={(e) => setUrl(e.target.value)}
              />
            </label>
            {errors.url && (
              <p role="alert" className="text-sm text-red-700">
                {errors.url}
              </p>
            )}
            <label className="block text-sm font-medium text-slate-800">
              Title
              <input
                className={input}
                value={title}
                aria-invalid={!!errors.title}
                onChange={(e) => setTitle(e.target.value)}
              />
            </label>
            {errors.title && (
              <p role="alert" className="text-sm text-red-700">
                {errors.title}
              </p>
            )}
            <label className="block text-sm font-medium text-slate-800">
              Notes
              <textarea className={input} rows={3} value={notes} onChange={(e) => setNotes(e.target.value)} />
            </label>
            {paid ? (
              <TagInput tags={tags} onChange={setTags} />
            ) : (
              <p className="text-xs text-slate-600">Tags and favorites are available on Pro and Team.</p>
            )}
            <div className="flex justify-end gap-3 pt-2">
              <Button variant="secondary" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" disabled={saving}>
                {link ? 'Save Changes' : 'Add Link'}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
