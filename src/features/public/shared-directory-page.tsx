import { useCallback, useEffect, useState } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { formatCount } from '../../domain/number-format.ts';
import { usePageTitle } from '../../ui/page-title.ts';
import { PAGES } from '../../domain/pages.ts';
import { DirectoryPasswordForm } from './directory-password-form.tsx';
import { DirectoryUnavailable } from './directory-unavailable.tsx';
import { gradientOf } from '../../ui/directory-colors.ts';
import { OfflineCopyNote, OfflinePage, useReloadWhenOnline } from './offline-state.tsx';
import { loadPublicDirectory, type DirectoryResult } from './public-api.ts';
import { PublicLinkGrid } from './public-link-grid.tsx';
import { VisitorLayout } from './visitor-layout.tsx';

type Loaded = Exclude<DirectoryResult, { kind: 'password' | 'wrong-password' }>;
type View = { kind: 'loading' } | { kind: 'form'; error: string | null } | Loaded;

const OFFLINE_UNLOCK = 'You are offline. Connect to the internet to open this directory.';

/** What the page shows for an answer; `unlocking` when it answered a password. */
function viewOf(result: DirectoryResult, unlocking: boolean): View {
  switch (result.kind) {
    case 'password':
      return { kind: 'form', error: null };
    case 'wrong-password':
      return { kind: 'form', error: 'Wrong password.' };
    case 'throttled':
      return unlocking ? { kind: 'form', error: result.message } : result;
    case 'offline':
      return unlocking ? { kind: 'form', error: OFFLINE_UNLOCK } : result;
    default:
      return result;
  }
}

/** The directory id from :dirId, the /share/dir/{id} splat, or ?dirId= (docs/product.md, Links screen). */
function useDirId(): string {
  const params = useParams();
  const [search] = useSearchParams();
  const splat = params['*']?.split('/')[0];
  return params.dirId ?? (splat || search.get('dirId') || '');
}

/**
 * A directory opened by a visitor (docs/product.md, Links screen): public, password protected, or not available;
 * offline, the copy last seen here, or 'You are offline'.
 */
export function SharedDirectoryPage() {
  const dirId = useDirId();
  const [loaded, setLoaded] = useState<{ dirId: string; view: View } | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [busy, setBusy] = useState(false);
  const view: View = loaded?.dirId === dirId ? loaded.view : { kind: 'loading' };
  usePageTitle(view.kind === 'ok' ? view.directory.name : PAGES.sharedDirectory.title);

  useEffect(() => {
    let live = true;
    void loadPublicDirectory(dirId).then((result) => {
      if (live) setLoaded({ dirId, view: viewOf(result, false) });
    });
    return () => {
      live = false;
    };
  }, [dirId, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  // Back online: a copy or the offline page gives way to the live directory.
  useReloadWhenOnline(view.kind === 'offline' || (view.kind === 'ok' && !!view.savedAt), retry);

  const unlock = useCallback(
    async (password: string) => {
      setBusy(true);
      const result = await loadPublicDirectory(dirId, password);
      setBusy(false);
      setLoaded({ dirId, view: viewOf(result, true) });
    },
    [dirId],
  );

  return (
    <VisitorLayout>
      <div className="mx-auto max-w-5xl px-4 py-8">{body(view, busy, unlock, retry)}</div>
    </VisitorLayout>
  );
}

function body(view: View, busy: boolean, unlock: (password: string) => Promise<void>, retry: () => void) {
  switch (view.kind) {
    case 'loading':
      return (
        <p role="status" className="py-16 text-center text-slate-500">
          Loading...
        </p>
      );
    case 'form':
      return <DirectoryPasswordForm error={view.error} busy={busy} onSubmit={(password) => void unlock(password)} />;
    case 'unavailable':
      return <DirectoryUnavailable />;
    case 'offline':
      return <OfflinePage onRetry={retry} />;
    case 'throttled':
      return (
        <p role="alert" className="py-16 text-center text-slate-700">
          {view.message}
        </p>
      );
    case 'ok':
      return (
        <>
          {view.savedAt && <OfflineCopyNote savedAt={view.savedAt} />}
          <header className={`mb-6 rounded-2xl bg-gradient-to-r p-6 text-white ${gradientOf(view.directory.color)}`}>
            <h1 className="text-2xl font-bold">{view.directory.name}</h1>
            {view.directory.description && <p className="mt-1 text-white/90">{view.directory.description}</p>}
            <p className="mt-2 text-sm text-white/80">{formatCount(view.links.length, 'link')}</p>
          </header>
          <PublicLinkGrid links={view.links} />
        </>
      );
  }
}
