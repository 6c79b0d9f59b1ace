/**
 * What the palette runs besides opening an item (docs/product.md, Command palette): the Add actions, the
 * screens and sign-out. One list: a new action is one more entry here (its group, label, words it is
 * also found by, and what it does).
 */
import { PAGES, type PageId } from '../../domain/pages.ts';
import type { ThemeChoice } from '../../ui/theme/theme.ts';
import { fold } from './matcher.ts';

export interface ActionContext {
  username: string | null;
  navigate(path: string): void;
  signOut(): void;
  /** Shows the theme at once and saves it on the profile (synced, as Profile's Appearance does). */
  setTheme(choice: ThemeChoice): void;
  /** Says a text to screen readers (the screen a command opened). */
  announce(text: string): void;
}

export type ActionGroup = 'Actions' | 'Go to';

export interface PaletteAction {
  readonly id: string;
  readonly group: ActionGroup;
  readonly label: string;
  /** Other words it is found by. */
  readonly keywords?: string;
  /** Its key in the shortcut notation of aria-keyshortcuts, shown beside it. */
  readonly shortcut?: string;
  run(context: ActionContext): void;
}

/** A workspace page's address for the user, as the sidebar links it (/{Page}/{username}). */
export function pagePath(page: PageId, username: string | null, search = ''): string {
  const base = PAGES[page].paths[0];
  return `${username ? `${base}/${username}` : base}${search}`;
}

/** Goes to `page` (with `search`) and says which screen opened. */
export function goTo(context: ActionContext, page: PageId, search = ''): void {
  context.navigate(pagePath(page, context.username, search));
  context.announce(PAGES[page].title);
}

const add = (id: string, label: string, page: PageId, ask: string, keywords: string): PaletteAction => ({
  id,
  group: 'Actions',
  label,
  keywords,
  run: (context) => goTo(context, page, `?new=${ask}`),
});

const go = (page: PageId, label: string, shortcut?: string, keywords = ''): PaletteAction => ({
  id: `go-${page}`,
  group: 'Go to',
  label: `Go to ${label}`,
  keywords: `${PAGES[page].title} ${keywords}`,
  shortcut,
  run: (context) => goTo(context, page),
});

const theme = (choice: ThemeChoice, label: string): PaletteAction => ({
  id: `theme-${choice}`,
  group: 'Actions',
  label: `Theme: ${label}`,
  keywords: 'appearance colour color scheme mode switch',
  run: (context) => {
    context.setTheme(choice);
    context.announce(`Theme: ${label}`);
  },
});

export const PALETTE_ACTIONS: readonly PaletteAction[] = [
  add('add-link', 'Add Link', 'links', 'link', 'new bookmark save url'),
  add('add-event', 'Create Event', 'calendar', 'event', 'new add meeting appointment'),
  add('add-task', 'Add Task', 'calendar', 'task', 'new todo to-do'),
  add('add-poll', 'Create Poll', 'voting', 'poll', 'new add vote start'),
  go('dashboard', 'Dashboard', 'g d', 'home'),
  go('links', 'My Links', 'g l', 'directories bookmarks'),
  go('calendar', 'Calendar', 'g c', 'events tasks'),
  go('upcoming', 'Upcoming', 'g u'),
  go('voting', 'Voting', 'g p', 'polls'),
  go('profile', 'Profile', 'g r', 'settings account'),
  go('upgrade', 'Upgrade', undefined, 'plans pro billing'),
  theme('dark', 'Dark'),
  theme('light', 'Light'),
  theme('system', 'System'),
  {
    id: 'sign-out',
    group: 'Actions',
    label: 'Sign out',
    keywords: 'log out logout',
    run: (context) => context.signOut(),
  },
];

export interface IndexedAction {
  readonly action: PaletteAction;
  readonly key: string;
  readonly rest: string;
}

/** The actions as the matcher reads them. */
export function indexActions(actions: readonly PaletteAction[]): IndexedAction[] {
  return actions.map((action) => ({ action, key: fold(action.label), rest: fold(action.keywords ?? '') }));
}
