import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Outlet, useParams, type RouteObject } from 'react-router-dom';
import { useCurrentUser } from '../backend/current-user-store.ts';
import { isProfileSegment } from '../features/profile/public-url.ts';
import { RouteGuard } from './route-guard.tsx';

/** Lazily loads a named export, so each screen is its own chunk. */
function screen<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M) {
  const Component = lazy(async () => ({ default: (await load())[name] as ComponentType }));
  return <Component />;
}

const PublicLayout = lazy(async () => ({ default: (await import('../ui/public-layout.tsx')).PublicLayout }));

function PublicPages(): ReactNode {
  return (
    <PublicLayout>
      <Outlet />
    </PublicLayout>
  );
}

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
  return status === 'signed-out' && dirId ? sharedDirectory : signedIn;
}

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
