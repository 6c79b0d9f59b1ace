import { createElement, lazy, Suspense, type ComponentType, type ReactElement, type ReactNode } from 'react';
import { matchRoutes, Outlet, useParams, type RouteObject } from 'react-router-dom';
import { useCurrentUser } from '../backend/current-user-store.ts';
import { rememberedUsername } from '../backend/remembered-username.ts';
import { isProfileSegment } from '../features/profile/public-url.ts';
import { RouteGuard } from './route-guard.tsx';

interface Preloadable {
  /** Starts loading the screen's chunk (once); resolves when it is loaded. */
  preload(): Promise<unknown>;
}

/**
 * Lazily loads a named export, so each screen is its own chunk. Once its chunk is loaded (say by
 * `preloadRoute` at boot) the component renders at once instead of suspending: React throttles
 * the reveal of suspended content by 300 ms, which a warm start cannot afford twice.
 */
export function preloadable<P extends object, M extends Record<string, unknown>>(
  load: () => Promise<M>,
  name: keyof M,
) {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  const preload = () =>
    (loading ??= load().then(
      (module) => ({ default: (loaded = module[name] as ComponentType<P>) }),
      (error: unknown) => {
        loading = null;
        throw error;
      },
    ));
  const Lazy = lazy(preload);
  return Object.assign((props: P) => (loaded ? createElement(loaded, props) : createElement(Lazy, props)), { preload });
}

function screen<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M): ReactElement {
  const Screen = preloadable<object, M>(load, name);
  return <Screen />;
}

const preloadOf = (element: ReactNode): Preloadable | null => {
  const type = (element as ReactElement | null)?.type as Partial<Preloadable> | undefined;
  return typeof type?.preload === 'function' ? (type as Preloadable) : null;
};

const PublicLayout = preloadable<{ children: ReactNode }, typeof import('../ui/public-layout.tsx')>(
  () => import('../ui/public-layout.tsx'),
  'PublicLayout',
);

function PublicPages(): ReactNode {
  return (
    <PublicLayout>
      <Outlet />
    </PublicLayout>
  );
}
PublicPages.preload = PublicLayout.preload;

const signedIn = screen(() => import('./signed-in-area.tsx'), 'SignedInArea');
const sharedDirectory = screen(() => import('../features/public/shared-directory-page.tsx'), 'SharedDirectoryPage');
const publicProfile = screen(() => import('../features/public/public-profile-page.tsx'), 'PublicProfilePage');
const notFound = screen(() => import('./not-found-page.tsx'), 'NotFoundPage');

/**
 * /{username}: the public profile at the address the Profile screen shows (spec 2.11). The
 * app's own pages rank above this route; a segment that cannot be a username, or is reserved,
 * is not found.
 */
function UserPage(): ReactNode {
  const { username = '' } = useParams();
  return isProfileSegment(username) ? publicProfile : notFound;
}

/**
 * The signed-in area, except that /Links/{username}/dir/{id} opened by a visitor shows the
 * visitor view. One element for every workspace page, so moving between them never remounts
 * the user's session.
 */
function Workspace(): ReactNode {
  const status = useCurrentUser((state) => state.status);
  const { dirId } = useParams();
  // While the user loads, a device that remembers nobody is taken for a visitor's, so a shared
  // link never downloads the workspace (a signed-in user is moved to it once loaded).
  const visitor = status === 'signed-out' || (status !== 'signed-in' && rememberedUsername() === null);
  return visitor && dirId ? sharedDirectory : signedIn;
}
Workspace.preload = () => preloadOf(signedIn)!.preload();

/** A signed-in page reachable with and without the {username} segment. */
function scoped(page: string, element: ReactNode): RouteObject[] {
  return [
    { path: `/${page}`, element },
    { path: `/${page}/:username`, element },
  ];
}

export const routes: RouteObject[] = [
  {
    element: (
      <Suspense fallback={null}>
        <RouteGuard />
      </Suspense>
    ),
    children: [
      {
        element: <PublicPages />,
        children: [
          { path: '/', element: screen(() => import('../features/marketing/landing-page.tsx'), 'LandingPage') },
          {
            path: '/Features',
            element: screen(() => import('../features/marketing/features-page.tsx'), 'FeaturesPage'),
          },
          { path: '/Privacy', element: screen(() => import('../features/marketing/privacy-page.tsx'), 'PrivacyPage') },
          { path: '/GDPR', element: screen(() => import('../features/marketing/gdpr-page.tsx'), 'GdprPage') },
          { path: '/About', element: screen(() => import('../features/marketing/about-page.tsx'), 'AboutPage') },
          { path: '/Contact', element: screen(() => import('../features/marketing/contact-page.tsx'), 'ContactPage') },
        ],
      },
      { path: '/Login', element: screen(() => import('../features/auth/login-page.tsx'), 'LoginPage') },
      { path: '/PublicProfile', element: publicProfile },
      { path: '/PublicProfile/:username', element: publicProfile },
      { path: '/:username', element: <UserPage /> },
      {
        path: '/share/dir/*',
        element: screen(() => import('../features/public/shared-directory-page.tsx'), 'SharedDirectoryPage'),
      },
      {
        path: '/Links/dir/:dirId',
        element: screen(() => import('../features/public/shared-directory-page.tsx'), 'SharedDirectoryPage'),
      },
      // '/Links/:username/dir/:dirId' is in the workspace group below: Workspace shows visitors the shared view.
      {
        element: <Workspace />,
        children: [
          {
            path: '/Links/:username/dir/:dirId',
            element: screen(() => import('../features/links/links-page.tsx'), 'LinksPage'),
          },
          ...scoped(
            'Dashboard',
            screen(() => import('../features/dashboard/dashboard-page.tsx'), 'DashboardPage'),
          ),
          ...scoped(
            'Links',
            screen(() => import('../features/links/links-page.tsx'), 'LinksPage'),
          ),
          ...scoped(
            'Calendar',
            screen(() => import('../features/calendar/calendar-page.tsx'), 'CalendarPage'),
          ),
          ...scoped(
            'Upcoming',
            screen(() => import('../features/calendar/upcoming-page.tsx'), 'UpcomingPage'),
          ),
          ...scoped(
            'Profile',
            screen(() => import('../features/profile/profile-page.tsx'), 'ProfilePage'),
          ),
          ...scoped(
            'Upgrade',
            screen(() => import('../features/billing/upgrade-page.tsx'), 'UpgradePage'),
          ),
          ...scoped(
            'Voting',
            screen(() => import('../features/polls/voting-page.tsx'), 'VotingPage'),
          ),
          // The manifest's share_target: a page shared from another app opens Add Link prefilled.
          {
            path: '/share-target',
            element: screen(() => import('../features/links/share-target/share-target-page.tsx'), 'ShareTargetPage'),
          },
        ],
      },
      { path: '*', element: notFound },
    ],
  },
];

/**
 * Loads the chunks of the screen at `pathname` (and of the signed-in area around it) in parallel,
 * before the first render, so a warm start never shows a fallback: the app renders once its chunks
 * are here. Resolves even when one fails (the screen then suspends and its boundary reports it).
 */
export function preloadRoute(pathname: string): Promise<unknown> {
  const loads: (Promise<unknown> | undefined)[] = [];
  for (const match of matchRoutes(routes, pathname) ?? []) {
    const element = match.route.element as ReactElement | undefined;
    // A device that remembers no signed-in user is a visitor's: no workspace chunks, and a
    // directory address opens the shared view.
    if (element?.type === Workspace && rememberedUsername() === null) {
      if (match.params.dirId) loads.push(preloadOf(sharedDirectory)?.preload());
      break;
    }
    loads.push(preloadOf(element)?.preload());
  }
  return Promise.all(loads.map((load) => load?.catch(() => undefined)));
}
