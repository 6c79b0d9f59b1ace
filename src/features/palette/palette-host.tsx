/**
 * The keyboard layer of the signed-in area (docs/product.md, Command palette; Keyboard shortcuts): listens
 * for the shortcuts (shortcuts.ts) and acts on them. Small on purpose, as the shell loads it: the palette
 * (cmdk and the index) and the `?` dialog load with their first use (docs/architecture.md, Command palette).
 */
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useUserDb } from '../../data/user-db-context.ts';
import { chooseTheme } from '../../ui/theme/theme-choice.ts';
import { goTo, type ActionContext } from './actions.ts';
import { createShortcutHandler, type ShortcutCommand } from './shortcuts.ts';

export const loadPalette = () => import('./palette.tsx');
const CommandPalette = lazy(async () => ({ default: (await loadPalette()).CommandPalette }));
const ShortcutHelp = lazy(async () => ({ default: (await import('./shortcut-help.tsx')).ShortcutHelp }));

/** A dialog or menu is open: single keys belong to it. */
export const dialogIsOpen = () =>
  document.querySelector('[role="dialog"], [role="alertdialog"], [role="menu"]') !== null;

/** The usable element of the screen that carries `key` in aria-keyshortcuts (its Add button, its search field). */
export function shortcutTarget(key: string): HTMLElement | null {
  for (const element of document.querySelectorAll<HTMLElement>(`main [aria-keyshortcuts~="${key}"]`)) {
    const usable = !element.matches(':disabled, [aria-disabled="true"]');
    // Skips one hidden by the layout (checkVisibility is missing where there is no layout: jsdom).
    if (usable && (typeof element.checkVisibility !== 'function' || element.checkVisibility())) return element;
  }
  return null;
}

export interface PaletteHostProps {
  /** The signed-in user's id: a theme chosen here is kept for them (src/ui/theme/theme-choice.ts). */
  userId: string;
  username: string | null;
  /** The app's sign-out (it asks first when changes wait to be sent). */
  onSignOut(): void;
}

export function PaletteHost({ userId, username, onSignOut }: PaletteHostProps) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  // 'unloaded' until the first Ctrl/Cmd+K: the palette's code is not fetched before.
  const [palette, setPalette] = useState<'unloaded' | 'open' | 'closed'>('unloaded');
  const [help, setHelp] = useState<'unloaded' | 'open' | 'closed'>('unloaded');
  const [announcement, setAnnouncement] = useState('');
  const handler = useMemo(() => createShortcutHandler(), []);
  const { mutate } = useUserDb();
  const context = useMemo<ActionContext>(
    () => ({
      username,
      navigate: (path) => void navigate(path),
      signOut: onSignOut,
      setTheme: (choice) => void chooseTheme(userId, choice, (value) => mutate('profile.update', { theme: value })),
      announce: setAnnouncement,
    }),
    [username, navigate, onSignOut, mutate, userId],
  );
  // The index the palette keeps between opens is the user's data: let go of it when the signed-in
  // area goes (sign-out).
  const loaded = palette !== 'unloaded';
  useEffect(
    () => () => {
      if (loaded) void import('./palette-index.ts').then(({ forgetPaletteIndex }) => forgetPaletteIndex());
    },
    [loaded],
  );
  const latest = useRef({ context, pathname });
  useEffect(() => {
    latest.current = { context, pathname };
  }, [context, pathname]);

  useEffect(() => {
    const act = (command: ShortcutCommand) => {
      const { context, pathname } = latest.current;
      switch (command.type) {
        case 'palette':
          setPalette('open');
          return;
        case 'help':
          setHelp('open');
          return;
        case 'go':
          goTo(context, command.page);
          return;
        case 'search': {
          const field = shortcutTarget('/');
          field?.focus();
          if (field instanceof HTMLInputElement) field.select();
          return;
        }
        case 'new': {
          const button = shortcutTarget('n');
          if (button) button.click();
          // The grid of directories has no Add Link of its own: Add Link with a choice of directory.
          else if (/^\/links(\/[^/]+)?\/?$/i.test(pathname)) goTo(context, 'links', '?new=link');
          return;
        }
      }
    };
    const onKeyDown = (event: KeyboardEvent) => {
      const command = handler.handle(event, dialogIsOpen());
      if (!command) return;
      event.preventDefault();
      act(command);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [handler]);

  return (
    <>
      <div role="status" className="sr-only">
        {announcement}
      </div>
      <Suspense fallback={null}>
        {palette !== 'unloaded' && (
          <CommandPalette
            open={palette === 'open'}
            onOpenChange={(open) => setPalette(open ? 'open' : 'closed')}
            context={context}
          />
        )}
        {help !== 'unloaded' && (
          <ShortcutHelp open={help === 'open'} onOpenChange={(open) => setHelp(open ? 'open' : 'closed')} />
        )}
      </Suspense>
    </>
  );
}
