import { useCallback, useEffect, useState } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { usePageTitle } from '../../ui/page-title.ts';
import { DirectoryPasswordForm } from './directory-password-form.tsx';
import { DirectoryUnavailable } from './directory-unavailable.tsx';
import { gradientOf } from './directory-colors.ts';
import { loadPublicDirectory, type DirectoryResult } from './public-api.ts';
import { PublicLinkGrid } from './public-link-grid.tsx';

type State = DirectoryResult | { kind: 'loading' };

/** The directory id from :dirId, the /share/dir/{id} splat, or ?dirId= (spec 2.6). */
function useDirId(): string {
  const params = useParams();
  const [search] = useSearchParams();
  const splat = params['*']?.split('/')[0];
  return params.dirId ?? (splat || search.get('dirId') || '');
}

/** A directory opened by a visitor (spec 2.6): public, password protected, or not available. */
export function SharedDirectoryPage() {
  const dirId = useDirId();
  const [loaded, setLoaded] = useState<{ dirId: string; result: DirectoryResult } | null>(null);
  const [busy, setBusy] = useState(false);
  const state: State = loaded?.dirId === dirId ? loaded.result : { kind: 'loading' };
  usePageTitle(state.kind === 'ok' ? state.directory.name : 'Shared directory');

  useEffect(() => {
    let live = true;
    void loadPublicDirectory(dirId).then((result) => {
      if (live) setLoaded({ dirId, result });
    });
    return () => {
      live = false;
    };
  }, [dirId]);

  const unlock = useCallback(
    async (password: string) => {
      setBusy(true);
      const result = await loadPublicDirectory(dirId, password);
      setBusy(false);
      setLoaded({ dirId, result });
    },
    [dirId],
  );

  return <main className="mx-auto max-w-5xl px-4 py-8">{body(state, busy, unlock)}</main>;
}

function body(state: State, busy: boolean, unlock: (password: string) => Promise<void>) {
  switch (state.kind) {
    case 'loading':
      return (
        <p role="status" className="py-16 text-center text-slate-500">
          Loading...
        </p>
      );
    case 'password':
    case 'wrong-password':
      return (
        <DirectoryPasswordForm
          wrong={state.kind === 'wrong-password'}
          busy={busy}
          onSubmit={(password) => void unlock(password)}
        />
      );
    case 'unavailable':
      return <DirectoryUnavailable />;
    case 'ok':
      return (
        <>
          <header className={`mb-6 rounded-2xl bg-gradient-to-r p-6 text-white ${gradientOf(state.directory.color)}`}>
            <h1 className="text-2xl font-bold">{state.directory.name}</h1>
            {state.directory.description && <p className="mt-1 text-white/90">{state.directory.description}</p>}
            <p className="mt-2 text-sm text-white/80">
              {state.links.length === 1 ? '1 link' : `${state.links.length} links`}
            </p>
          </header>
          <PublicLinkGrid links={state.links} />
        </>
      );
  }
}
