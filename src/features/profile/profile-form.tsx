import { useState, type FormEvent } from 'react';
import { sanitizeUsername, usernameError } from '../../domain/username.ts';
import { Button } from '../../ui/button.tsx';
import { publicProfilePath } from './public-url.ts';

export interface ProfileFormValues {
  username: string;
  bio: string;
}

/** A save: queued (the draft is dropped), or not, with an error to show under the username. */
export type SaveResult = { ok: true } | { ok: false; error?: string };

interface ProfileFormProps {
  /** The saved values (live: a server rejection restores them here). */
  saved: ProfileFormValues;
  origin: string;
  onSave(values: ProfileFormValues): Promise<SaveResult>;
}

/**
 * The 'Public Profile' card (docs/product.md, Profile). What is typed is kept as a draft over the saved
 * values; after a save the fields show the saved values again, so a change the server
 * refuses comes back restored.
 */
export function ProfileForm({ saved, origin, onSave }: ProfileFormProps) {
  const [draft, setDraft] = useState<Partial<ProfileFormValues>>({});
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const username = draft.username ?? saved.username;
  const bio = draft.bio ?? saved.bio;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = usernameError(username);
    setError(invalid);
    if (invalid) return;
    setSaving(true);
    try {
      const result = await onSave({ username: sanitizeUsername(username), bio });
      if (result.ok) setDraft({});
      else if (result.error) setError(result.error);
    } finally {
      setSaving(false);
    }
  };
  const url = `${origin}${publicProfilePath(username)}`;

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="mt-4 grid gap-4">
      <div className="grid gap-1">
        <label htmlFor="profile-username" className="text-sm font-medium text-slate-700">
          Username
        </label>
        <input
          id="profile-username"
          value={username}
          autoComplete="username"
          aria-describedby="profile-url"
          aria-invalid={error ? true : undefined}
          onChange={(event) => {
            setDraft((value) => ({ ...value, username: sanitizeUsername(event.target.value) }));
            setError(null);
          }}
          className="focus:border-brand-600 rounded-lg border border-slate-300 px-3 py-2 text-sm outline-none"
        />
        <p id="profile-url" className="text-xs break-all text-slate-600">
          {/* The saved username's page opens; a draft's address is only a preview until saved. */}
          {username !== '' && username === saved.username ? (
            <a
              href={url}
              target="_blank"
              rel="noopener noreferrer"
              className="text-brand-700 dark:text-brand-300 underline"
            >
              {url}
            </a>
          ) : (
            url
          )}
        </p>
        {error && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {error}
          </p>
        )}
      </div>
      <div className="grid gap-1">
        <label htmlFor="profile-bio" className="text-sm font-medium text-slate-700">
          Bio
        </label>
        <textarea
          id="profile-bio"
          value={bio}
          rows={4}
          onChange={(event) => setDraft((value) => ({ ...value, bio: event.target.value }))}
          className="focus:border-brand-600 rounded-lg border border-slate-300 px-3 py-2 text-sm outline-none"
        />
      </div>
      <div>
        <Button type="submit" disabled={saving}>
          Save Changes
        </Button>
      </div>
    </form>
  );
}
