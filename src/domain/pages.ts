/**
 * Every screen of the app, declared once: its paths, who may open it, its title, its sidebar entry
 * and the feature folder its code lives in. The router (src/app/routes.tsx), the route rules
 * (route-rules.ts), the sidebar (src/app/shell/sidebar.tsx), the build's chunk plan
 * (vite.config.ts) and the reserved usernames (src/features/profile/public-url.ts) read it;
 * tests/app/pages.test.tsx fails when src/features or the lint zones (eslint.config.js) disagree.
 * Plain data, so config files can import it.
 */

/**
 * Who may open a page:
 * - public: anyone;
 * - guest: the sign-in page; a signed-in user moves on to the dashboard (or the `?next=` path);
 * - visitor-allowed: anyone, never redirected (shared directory views);
 * - signed-in: a signed-in user; a visitor signs in first and comes back;
 * - scoped-by-username: a signed-in user, at /{Page} or /{Page}/{username} with their own
 *   username (compared case-insensitively); anyone else goes to /.
 */
export type Guard = 'public' | 'guest' | 'visitor-allowed' | 'signed-in' | 'scoped-by-username';

/** What surrounds the screen: the marketing header and footer, the signed-in area (sidebar), or nothing. */
export type Layout = 'public' | 'workspace' | 'none';

/** The sidebar's icons (src/app/shell/sidebar.tsx maps each to its component). */
export type IconName = 'home' | 'link' | 'calendar' | 'clock' | 'vote' | 'user';

export interface SidebarEntry {
  /** 'workspace': the Workspace group, in table order; 'footer': the profile link above Logout. */
  readonly group: 'workspace' | 'footer';
  readonly label: string;
  readonly icon: IconName;
}

export interface Page {
  /**
   * Route paths, first the one links use. The router matches them case-insensitively, which gives
   * the lower-case variants (/dashboard, /upcoming/{username}) the route table asks for.
   */
  readonly paths: readonly string[];
  readonly guard: Guard;
  /** The bare path is completed with the username once the user is known (/dashboard becomes /Dashboard/ada). */
  readonly appendUsername?: boolean;
  readonly layout: Layout;
  /** The page's name in the document title; one whose title depends on what it shows uses it until then. */
  readonly title: string;
  readonly sidebar?: SidebarEntry;
  /** The folder under src/features that holds the screen. */
  readonly feature: string;
}

const withUsername = (page: string) => [`/${page}`, `/${page}/:username`] as const;

export const PAGES = {
  landing: { paths: ['/'], guard: 'public', layout: 'public', title: 'organise, plan, decide', feature: 'marketing' },
  features: { paths: ['/Features'], guard: 'public', layout: 'public', title: 'Features', feature: 'marketing' },
  privacy: { paths: ['/Privacy'], guard: 'public', layout: 'public', title: 'Privacy', feature: 'marketing' },
  gdpr: { paths: ['/GDPR'], guard: 'public', layout: 'public', title: 'GDPR', feature: 'marketing' },
  about: { paths: ['/About'], guard: 'public', layout: 'public', title: 'About', feature: 'marketing' },
  contact: { paths: ['/Contact'], guard: 'public', layout: 'public', title: 'Contact', feature: 'marketing' },
  login: { paths: ['/Login'], guard: 'guest', layout: 'none', title: 'Sign in', feature: 'auth' },
  publicProfile: {
    paths: withUsername('PublicProfile'),
    guard: 'public',
    layout: 'none',
    title: 'Public Profile',
    feature: 'public',
  },
  sharedDirectory: {
    paths: ['/share/dir/*', '/Links/dir/:dirId'],
    guard: 'visitor-allowed',
    layout: 'none',
    title: 'Shared directory',
    feature: 'public',
  },
  // A visitor gets the shared view here too (src/app/routes.tsx, Workspace).
  directory: {
    paths: ['/Links/:username/dir/:dirId'],
    guard: 'visitor-allowed',
    layout: 'workspace',
    title: 'My Links',
    feature: 'links',
  },
  dashboard: {
    paths: withUsername('Dashboard'),
    guard: 'scoped-by-username',
    appendUsername: true,
    layout: 'workspace',
    title: 'Dashboard',
    sidebar: { group: 'workspace', label: 'Dashboard', icon: 'home' },
    feature: 'dashboard',
  },
  links: {
    paths: withUsername('Links'),
    guard: 'scoped-by-username',
    appendUsername: true,
    layout: 'workspace',
    title: 'My Links',
    sidebar: { group: 'workspace', label: 'My Links', icon: 'link' },
    feature: 'links',
  },
  calendar: {
    paths: withUsername('Calendar'),
    guard: 'scoped-by-username',
    appendUsername: true,
    layout: 'workspace',
    title: 'My Calendar & Tasks',
    sidebar: { group: 'workspace', label: 'Calendar', icon: 'calendar' },
    feature: 'calendar',
  },
  upcoming: {
    paths: withUsername('Upcoming'),
    guard: 'scoped-by-username',
    appendUsername: true,
    layout: 'workspace',
    title: 'Upcoming',
    sidebar: { group: 'workspace', label: 'Upcoming', icon: 'clock' },
    feature: 'calendar',
  },
  // The voting board lives at /Voting/{username}.
  voting: {
    paths: withUsername('Voting'),
    guard: 'scoped-by-username',
    layout: 'workspace',
    title: 'Public Voting Board',
    sidebar: { group: 'workspace', label: 'Voting', icon: 'vote' },
    feature: 'polls',
  },
  profile: {
    paths: withUsername('Profile'),
    guard: 'scoped-by-username',
    layout: 'workspace',
    title: 'Profile',
    sidebar: { group: 'footer', label: 'Profile', icon: 'user' },
    feature: 'profile',
  },
  upgrade: {
    paths: withUsername('Upgrade'),
    guard: 'scoped-by-username',
    appendUsername: true,
    layout: 'workspace',
    title: 'Upgrade',
    feature: 'billing',
  },
  // The manifest's share_target: a page shared from another app opens Add Link prefilled.
  shareTarget: {
    paths: ['/share-target'],
    guard: 'signed-in',
    layout: 'workspace',
    title: 'Add Link',
    feature: 'links',
  },
} as const satisfies Record<string, Page>;

export type PageId = keyof typeof PAGES;

/** The table as a list, in declaration order (the sidebar's order). */
export const pageList = Object.entries(PAGES) as [PageId, Page][];

/**
 * Feature folders no page lives in, shown inside signed-in screens through slots the app fills
 * (src/app/slots.tsx), or by the signed-in shell itself (the command palette).
 */
export const SLOT_FEATURES = ['transfer', 'palette'] as const;

/** The first path segment of every page, lower-cased (a username must not take one). */
export const pageSegments: readonly string[] = [
  ...new Set(pageList.flatMap(([, page]) => page.paths.map((path) => path.split('/')[1]!.toLowerCase()))),
].filter(Boolean);

/**
 * Feature folders loaded only inside the signed-in area: those of the workspace's pages and of the
 * slots, less any a visitor's page also lives in.
 */
export const signedInFeatures: readonly string[] = (() => {
  const visitors = new Set(pageList.filter(([, page]) => page.layout !== 'workspace').map(([, page]) => page.feature));
  const workspace = pageList.filter(([, page]) => page.layout === 'workspace').map(([, page]) => page.feature);
  return [...new Set([...workspace, ...SLOT_FEATURES])].filter((feature) => !visitors.has(feature));
})();
