import { valibotResolver } from '@hookform/resolvers/valibot';
import { memo, useRef, useState, type FormEvent, type MouseEvent, type ReactNode } from 'react';
import { useForm, useFormState, useWatch, type Control, type UseFormRegister } from 'react-hook-form';
import { useCurrentUser } from '../../backend/current-user-store.ts';
import { askForPreviews } from '../../data/preview-asks.ts';
import type { LinkRow } from '../../data/rows.ts';
import { useUserDb } from '../../data/user-db-context.ts';
import type { Tier } from '../../domain/plans.ts';
import { Button } from '../../ui/button.tsx';
import { FormDialog, RefusalAlert, useRefusal } from '../../ui/form-dialog.tsx';
import type { PlanLimit } from '../../ui/limit-notice.tsx';
import { toast } from '../../ui/toast-store.ts';
import { DuplicateNotice } from './duplicate-notice.tsx';
import { linkFormSchema, type LinkFormInput, type LinkFormValues } from './link-form.ts';
import { TagInput } from './tag-input.tsx';
import { useDuplicateCheck, type DuplicateAnswer } from './use-duplicate-check.ts';

export interface LinkDialogProps {
  directoryId: string;
  /** The link to edit, or null to add one. */
  link: LinkRow | null;
  tier: Tier;
  onClose(): void;
  /** Starting values of a new link (a page shared from another app, the extension or the bookmarklet). */
  initial?: { url?: string; title?: string; notes?: string };
  /** Shown above the fields, for example a choice of directory. */
  chooser?: ReactNode;
  /** Called after a successful save instead of onClose. */
  onSaved?(saved: { id: string; directoryId: string }): void;
  /** The link limit of the directory's plan, when it is already reached: said before the fields. */
  limit?: PlanLimit | null;
  /** Called when the user follows the duplicate notice's link to a directory (default: onClose). */
  onFollow?(): void;
}

const input = 'mt-1 w-full rounded-lg border border-slate-300 px-3 py-2';

/** Add Link / Edit Link (docs/product.md, Links screen; Validation). Tags and the favourite star are for Pro and Team. */
function LinkDialogView(props: LinkDialogProps) {
  const { directoryId, link, tier, onClose, initial, chooser, onSaved, limit, onFollow } = props;
  const { db, mutate } = useUserDb();
  const username = useCurrentUser((state) => state.user?.username ?? '');
  const { register, handleSubmit, control, getValues } = useForm<LinkFormInput, unknown, LinkFormValues>({
    resolver: valibotResolver(linkFormSchema),
    defaultValues: {
      url: link?.url ?? initial?.url ?? '',
      title: link?.title ?? initial?.title ?? '',
      notes: link?.notes ?? initial?.notes ?? '',
    },
    // Errors show on submit (as before), then follow the typing.
    mode: 'onSubmit',
  });
  const [tags, setTags] = useState<string[]>(link?.tags ?? []);
  const [favorite, setFavorite] = useState(link?.is_favorite ?? false);
  const paid = tier !== 'free';
  // A second Add Link while the first is saving does nothing. A ref, not RHF's isSubmitting: that
  // state re-rendered the dialog between the click and the save, a frame's worth of work before the
  // new link could be drawn (the save is local and the dialog closes in the next frame).
  const saving = useRef(false);
  const { refusal, show: refuse, clear: clearRefusal } = useRefusal();
  // A new link's URL is looked up as it is typed: 'Already saved in …' before saving.
  const duplicates = useDuplicateCheck(useWatch({ control, name: 'url' }), link === null);

  async function save(fields: LinkFormValues, seen: DuplicateAnswer | undefined) {
    if (saving.current) return;
    saving.current = true;
    try {
      await saveFields(fields, getValues('url'), seen);
    } finally {
      saving.current = false;
    }
  }

  async function saveFields(fields: LinkFormValues, typedUrl: string, seen: DuplicateAnswer | undefined) {
    const extra = paid ? { tags } : {};
    clearRefusal();
    // Saved elsewhere and not said as the button was pressed: the notice shows, the button
    // becomes 'Save anyway', and nothing is saved yet.
    if (!link && !(await duplicates.mayAdd(typedUrl, seen))) return;
    let ok = false;
    let id = link?.id ?? '';
    try {
      if (link) {
        // Only a change is queued: a star alone is one mutation, on screen in one transaction.
        const changed =
          fields.url !== link.url ||
          fields.title !== link.title ||
          (fields.notes ?? null) !== (link.notes ?? null) ||
          (paid && tags.join('\u0000') !== link.tags.join('\u0000'));
        ok = !changed || (await mutate('link.update', { id: link.id, ...fields, ...extra }, refuse)) !== null;
        if (ok && paid && favorite !== link.is_favorite) {
          ok = (await mutate('link.set_favorite', { id: link.id, value: favorite }, refuse)) !== null;
        }
      } else {
        id = crypto.randomUUID();
        const args = { id, directory_id: directoryId, ...fields, ...extra };
        ok = (await mutate('link.create', paid ? { ...args, is_favorite: favorite } : args, refuse)) !== null;
      }
    } catch {
      toast('Failed to save link. Please try again.', 'error');
    }
    // A new page: the server reads it once the link reaches it (docs/architecture.md, Link previews).
    if (ok && (!link || fields.url !== link.url)) void askForPreviews(db, [id]).catch(() => undefined);
    if (ok && onSaved) onSaved({ id, directoryId: link?.directory_id ?? directoryId });
    else if (ok) onClose();
  }

  function submit(e: FormEvent | MouseEvent) {
    e.preventDefault();
    // What the duplicate notice says as the button is pressed, before the form's async check.
    const seen = duplicates.seen();
    void handleSubmit((fields) => save(fields, seen))(e);
  }

  const star = paid && (
    <button
      type="button"
      aria-label={favorite ? 'Remove from favorites' : 'Add to favorites'}
      aria-pressed={favorite}
      onClick={() => setFavorite(!favorite)}
      className={`text-2xl leading-none ${favorite ? 'text-amber-500' : 'text-slate-300'}`}
    >
      ★
    </button>
  );
  return (
    <FormDialog
      title={link ? 'Edit Link' : 'Add Link'}
      description="Save a link to this directory."
      titleAside={star}
      limit={limit}
      onClose={onClose}
    >
      <form className="mt-4 space-y-4" onSubmit={submit} noValidate>
        {chooser}
        <LinkField name="url" label="URL" control={control} register={register} url />
        {link === null && (
          <DuplicateNotice copies={duplicates.copies} username={username} onFollow={onFollow ?? onClose} />
        )}
        <LinkField name="title" label="Title" control={control} register={register} />
        <LinkField name="notes" label="Notes" control={control} register={register} multiline />
        {paid ? (
          <TagInput tags={tags} onChange={setTags} />
        ) : (
          <p className="text-xs text-slate-600">Tags and favorites are available on Pro and Team.</p>
        )}
        <RefusalAlert refusal={refusal} />
        <div className="flex justify-end gap-3 pt-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button
            type="submit"
            // Saved from the click itself: the form's submission (a style update, a submit
            // event) would come between the click and the new link's paint. Enter in a
            // field clicks this button too (implicit submission), so it comes here as well.
            onClick={submit}
          >
            {link ? 'Save Changes' : duplicates.copies.length > 0 ? 'Save anyway' : 'Add Link'}
          </Button>
        </div>
      </form>
    </FormDialog>
  );
}

interface LinkFieldProps {
  name: 'url' | 'title' | 'notes';
  label: string;
  control: Control<LinkFormInput, unknown, LinkFormValues>;
  register: UseFormRegister<LinkFormInput>;
  url?: boolean;
  /** A textarea (the notes) rather than a one-line input. */
  multiline?: boolean;
}

/**
 * A field with its own error. It reads the error itself (useFormState), so a submit that clears
 * the errors re-renders this field, not the whole dialog between the click and the new link's paint.
 */
function LinkField({ name, label, control, register, url, multiline }: LinkFieldProps) {
  const error = useFormState({ control, name }).errors[name];
  const errorId = `link-${name}-error`;
  const described = { 'aria-invalid': !!error, 'aria-describedby': error ? errorId : undefined };
  return (
    <>
      <label className="block text-sm font-medium text-slate-800">
        {label}
        {multiline ? (
          <textarea className={input} rows={3} {...described} {...register(name)} />
        ) : (
          <input
            className={input}
            {...(url ? { inputMode: 'url' as const, placeholder: 'example.com' } : {})}
            {...described}
            {...register(name)}
          />
        )}
      </label>
      {error && (
        <p id={errorId} role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error.message}
        </p>
      )}
    </>
  );
}

/** Memoized: a list changing behind the dialog (its own new link) does not re-render the form. */
export const LinkDialog = memo(LinkDialogView);
