import { Suspense, useEffect, useLayoutEffect } from 'react';
import { Outlet } from 'react-router-dom';
import type { CurrentUser } from '../../backend/profile.ts';
import { useOutboxCount } from '../../data/queries/outbox.ts';
import { useUserDb } from '../../data/user-db-context.ts';
import { preloadSignOut, unsyncedMessage, useSignOut } from '../sync/sign-out.ts';
import { PaletteHost } from '../../features/palette/palette-host.tsx';
import type { ConfirmDialogProps } from '../../ui/confirm-dialog.tsx';
import { DialogLoadFailed, preloadable } from '../../ui/preloadable.ts';
import { ScreenBoundary } from '../../ui/screen-error-boundary.tsx';
import { afterScreenShown } from '../../ui/screen-shown.ts';
import { MOBILE_QUERY, useMediaQuery } from '../../ui/use-media-query.ts';
import { ConfirmationOutcome } from './confirmation-outcome.tsx';
import { EmailConfirmationBanner } from './email-confirmation-banner.tsx';
import { MobileHeader } from './mobile-header.tsx';
import { PlanChangeNotice } from './plan-change-notice.tsx';
import { Sidebar } from './sidebar.tsx';
import { useSidebarState } from './sidebar-state.ts';

const ConfirmDialog = preloadable<ConfirmDialogProps, typeof import('../../ui/confirm-dialog.tsx')>(
  () => import('../../ui/confirm-dialog.tsx'),
  'ConfirmDialog',
  ({ onCancel }) => <DialogLoadFailed onClose={onCancel} />,
);

/** The longest sign-out's code waits for a screen that never says it is shown. */
const PRELOAD_SIGN_OUT_LIMIT_MS = 1_000;

/** The screen beside (or under) the sidebar, with the account's notices above it. */
function ShellMain({ className }: { className: string }) {
  return (
    <main id="main" className={className}>
      <ConfirmationOutcome />
      <EmailConfirmationBanner />
      <PlanChangeNotice />
      <ScreenBoundary>
        <Outlet />
      </ScreenBoundary>
    </main>
  );
}

/** The signed-in layout: sidebar (a drawer under 768 px) and the screen. */
export function AppShell({ user }: { user: CurrentUser }) {
  const mobile = useMediaQuery(MOBILE_QUERY);
  const { open, setOpen, toggle } = useSidebarState(mobile);
  const signOut = useSignOut();
  // The update prompt (src/app/update-prompt.tsx) keeps clear of the sidebar by this width, set
  // before the shell is first painted so the prompt is never drawn over the sidebar's footer.
  useLayoutEffect(() => {
    const root = document.documentElement.style;
    root.setProperty('--sidebar-width', mobile ? '0px' : open ? '16rem' : '4rem');
    return () => {
      root.removeProperty('--sidebar-width');
    };
  }, [mobile, open]);
  // Sign-out must work offline: fetch its code while the network is there, once the screen's
  // first content is painted (its chunk, with supabase-js's auth client, is not in that frame's
  // way). The question it may ask (a Radix dialog) is needed only while changes wait to be pushed:
  // it loads when the outbox has some, not with every screen (offline, the service worker has it
  // precached).
  useEffect(() => afterScreenShown(preloadSignOut, PRELOAD_SIGN_OUT_LIMIT_MS), []);
  const { db } = useUserDb();
  const unsynced = (useOutboxCount(db) ?? 0) > 0;
  useEffect(() => {
    if (unsynced) void ConfirmDialog.preload().catch(() => undefined);
  }, [unsynced]);
  const logout = signOut.request;
  const question = signOut.waiting !== null && (
    <Suspense fallback={null}>
      <ConfirmDialog
        open
        title="Sign out?"
        message={unsyncedMessage(signOut.waiting)}
        confirmLabel="Sign out and discard"
        tone="danger"
        onConfirm={signOut.confirm}
        onCancel={signOut.cancel}
      />
    </Suspense>
  );

  if (mobile) {
    return (
      <div className="min-h-screen bg-slate-50">
        <MobileHeader open={open} onToggle={toggle} onLogout={logout} />
        {open && (
          <div className="fixed inset-0 z-dialog flex">
            <div className="h-full w-[18rem] bg-surface shadow-xl">
              <Sidebar
                user={user}
                collapsed={false}
                onNavigate={() => setOpen(false)}
                onLogout={logout}
                showStatus={false}
              />
            </div>
            <button
              type="button"
              aria-label="Close sidebar"
              className="flex-1 bg-black/30"
              onClick={() => setOpen(false)}
            />
          </div>
        )}
        {/* One key in both layouts: crossing the breakpoint keeps the screen (and what is typed in it). */}
        <ShellMain key="main" className="p-4" />
        {question}
        <PaletteHost userId={user.id} username={user.username} onSignOut={logout} />
      </div>
    );
  }

  return (
    <div className="flex min-h-screen bg-slate-50">
      <aside
        className={`sticky top-0 h-screen shrink-0 border-r border-slate-200 bg-surface transition-[width] ${open ? 'w-64' : 'w-16'}`}
        data-state={open ? 'expanded' : 'collapsed'}
      >
        <Sidebar user={user} collapsed={!open} onLogout={logout} />
      </aside>
      <ShellMain key="main" className="min-w-0 flex-1 p-6 lg:p-8" />
      {question}
      <PaletteHost userId={user.id} username={user.username} onSignOut={logout} />
    </div>
  );
}
