import { Suspense, type ReactElement, type ReactNode } from 'react';
import { matchRoutes, Outlet, useParams, type RouteObject } from 'react-router-dom';
import { useCurrentUser } from '../backend/current-user-store.ts';
import { rememberedUsername } from '../backend/remembered-username.ts';
import { pageList, type Layout, type PageId } from '../domain/pages.ts';
import { isProfileSegment } from '../features/profile/public-url.ts';
import { preloadable, type Preloadable } from '../ui/preloadable.ts';
import { RouteGuard } from './route-guard.tsx';

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
const notFound = screen(() => import('./not-found-page.tsx'), 'NotFoundPage');

/** Each page of the table (src/domain/pages.ts) with its screen: a page without one does not compile. */
const screens: Record<PageId, ReactElement> = {
  landing: screen(() => import('../features/marketing/landing-page.tsx'), 'LandingPage'),
  features: screen(() => import('../features/marketing/features-page.tsx'), 'FeaturesPage'),
  privacy: screen(() => import('../features/marketing/privacy-page.tsx'), 'PrivacyPage'),
  gdpr: screen(() => import('../features/marketing/gdpr-page.tsx'), 'GdprPage'),
  about: screen(() => import('../features/marketing/about-page.tsx'), 'AboutPage'),
  contact: screen(() => import('../features/marketing/contact-page.tsx'), 'ContactPage'),
  login: screen(() => import('../features/auth/login-page.tsx'), 'LoginPage'),
  publicProfile: screen(() => import('../features/public/public-profile-page.tsx'), 'PublicProfilePage'),
  sharedDirectory: screen(() => import('../features/public/shared-directory-page.tsx'), 'SharedDirectoryPage'),
  directory: screen(() => import('../features/links/links-page.tsx'), 'LinksPage'),
  dashboard: screen(() => import('../features/dashboard/dashboard-page.tsx'), 'DashboardPage'),
  links: screen(() => import('../features/links/links-page.tsx'), 'LinksPage'),
  calendar: screen(() => import('../features/calendar/calendar-page.tsx'), 'CalendarPage'),
  upcoming: screen(() => import('../features/calendar/upcoming-page.tsx'), 'UpcomingPage'),
  voting: screen(() => import('../features/polls/voting-page.tsx'), 'VotingPage'),
  profile: screen(() => import('../features/profile/profile-page.tsx'), 'ProfilePage'),
  upgrade: screen(() => import('../features/billing/upgrade-page.tsx'), 'UpgradePage'),
  shareTarget: screen(() => import('../features/links/share-target/share-target-page.tsx'), 'ShareTargetPage'),
};
const sharedDirectory = screens.sharedDirectory;
const publicProfile = screens.publicProfile;

/**
 * /{username}: the public profile at the address the Profile screen shows (docs/product.md, Profile). The
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

/** The routes of the pages with `layout`, one per path. */
function pageRoutes(layout: Layout): RouteObject[] {
  return pageList
    .filter(([, page]) => page.layout === layout)
    .flatMap(([id, page]) => page.paths.map((path) => ({ path, element: screens[id] })));
}

export const routes: RouteObject[] = [
  {
    element: (
      <Suspense fallback={null}>
        <RouteGuard />
      </Suspense>
    ),
    children: [
      { element: <PublicPages />, children: pageRoutes('public') },
      ...pageRoutes('none'),
      { path: '/:username', element: <UserPage /> },
      { element: <Workspace />, children: pageRoutes('workspace') },
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
