import { useState, type FormEvent } from 'react';
import { sanitizeUsername, usernameError } from '../../domain/username.ts';
import { Button } from '../../ui/button.tsx';

export interface ProfileFormValues {
  username: string;
  bio: string;
}

interface ProfileFormProps {
  /** The saved values (live: a server rejection restores them here). */
  saved: ProfileFormValues;
  origin: string;
  onSave(values: ProfileFormValues): Promise<boolean>;
}

/**
 * The 'Public Profile' card (spec 2.11). What is typed is kept as a draft over the saved
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
      if (await onSave({ username: sanitizeUsername(username), bio })) setDraft({});
    } finally {
      setSaving(false);
    }
  };

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
          onChange={(event) => setDraft((value) => ({ ...value, username: sanitizeUsername(event.target.value) }))}
          className="focus:border-brand-600 rounded-lg border border-slate-300 px-3 py-2 text-sm outline-none"
        />
        <p id="profile-url" className="text-xs break-all text-slate-600">
          {`${origin}/${username}`}
        </p>
        {error && (
          <p role="alert" className="text-sm text-red-700">
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
