/**
 * The keyboard shortcuts (docs/product.md, Keyboard shortcuts), as a pure handler: the host
 * (palette-host.tsx) gives it each keydown and acts on the command it returns. Single keys never
 * fire while typing (an input, textarea, select or contenteditable has the key), with Ctrl, Alt or
 * Meta held, or while a dialog or menu is open; Ctrl/Cmd+K opens the palette from a text field too.
 */

/** The screens `g` then a letter goes to, by the page's id in src/domain/pages.ts. */
export const GO_KEYS = {
  d: 'dashboard',
  l: 'links',
  c: 'calendar',
  u: 'upcoming',
  p: 'voting',
  r: 'profile',
} as const;

export type GoPage = (typeof GO_KEYS)[keyof typeof GO_KEYS];

export type ShortcutCommand =
  { type: 'palette' } | { type: 'new' } | { type: 'search' } | { type: 'help' } | { type: 'go'; page: GoPage };

/** How long after `g` its letter is taken. */
export const G_TIMEOUT_MS = 1500;

export interface KeyInput {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  repeat?: boolean;
  isComposing?: boolean;
  target: EventTarget | null;
}

const EDITABLE = 'input, textarea, select, [contenteditable]:not([contenteditable="false"])';

/** Whether typing at `target` writes text (or picks an option). */
export function isTyping(target: EventTarget | null): boolean {
  const element = target as Element | null;
  return typeof element?.closest === 'function' && element.closest(EDITABLE) !== null;
}

export interface ShortcutHandler {
  /** The command for a keydown, or null. `dialogOpen`: a dialog or menu is open. */
  handle(event: KeyInput, dialogOpen: boolean): ShortcutCommand | null;
  /** Whether a `g` waits for its letter (at `now()`). */
  pending(): boolean;
  reset(): void;
}

/** A handler; `now` is its clock (tests pass one they move). */
export function createShortcutHandler(now: () => number = () => performance.now()): ShortcutHandler {
  let gAt: number | null = null;
  const waiting = () => gAt !== null && now() - gAt <= G_TIMEOUT_MS;
  return {
    handle(event, dialogOpen) {
      if (event.isComposing) return null;
      const key = event.key;
      if ((event.ctrlKey || event.metaKey) && !event.altKey && (key === 'k' || key === 'K')) {
        gAt = null;
        return dialogOpen ? null : { type: 'palette' };
      }
      if (event.ctrlKey || event.metaKey || event.altKey || dialogOpen || isTyping(event.target)) {
        gAt = null;
        return null;
      }
      if (event.repeat) return null;
      if (waiting()) {
        gAt = null;
        const page = (GO_KEYS as Record<string, GoPage>)[key];
        return page ? { type: 'go', page } : null;
      }
      gAt = null;
      switch (key) {
        case 'g':
          gAt = now();
          return null;
        case 'n':
          return { type: 'new' };
        case '/':
          return { type: 'search' };
        case '?':
          return { type: 'help' };
        default:
          return null;
      }
    },
    pending: waiting,
    reset() {
      gAt = null;
    },
  };
}

/** The shortcut list the `?` dialog shows, in the words of docs/product.md. */
export const SHORTCUT_LIST: readonly { keys: string; label: string }[] = [
  { keys: 'Ctrl+K / ⌘K', label: 'Open the command palette' },
  { keys: 'n', label: 'New item on this screen' },
  { keys: '/', label: "Search this screen's list" },
  { keys: 'g d', label: 'Go to Dashboard' },
  { keys: 'g l', label: 'Go to My Links' },
  { keys: 'g c', label: 'Go to Calendar' },
  { keys: 'g u', label: 'Go to Upcoming' },
  { keys: 'g p', label: 'Go to Voting' },
  { keys: 'g r', label: 'Go to Profile' },
  { keys: '?', label: 'Show keyboard shortcuts' },
];
