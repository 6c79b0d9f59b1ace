/**
 * The command palette (docs/product.md, Command palette; docs/architecture.md, Command palette): a Radix
 * dialog around cmdk's combobox and list. cmdk does the keyboard (arrows, Enter, the active option);
 * the matching is ours (matcher.ts, `shouldFilter={false}`), over an index read when the palette opens
 * (palette-index.ts), and the links' through the token index on each keystroke. The actions and screens
 * show at once; the items join them once read.
 * Loaded with the first Ctrl/Cmd+K (palette-host.tsx), never with a screen.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { Command } from 'cmdk';
import { useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import { useCurrentUser } from '../../backend/current-user-store.ts';
import { useUserSettings } from '../../data/queries/profile.ts';
import { useUserDb } from '../../data/user-db-context.ts';
import { formatDate } from '../../domain/date-format.ts';
import { isDayFirst, planPreviewText } from '../../domain/plain-words-preview.ts';
import { readPlan } from '../../domain/plain-words.ts';
import { storableText } from '../../domain/storable-text.ts';
import { useNow } from '../../backend/use-now.ts';
import { whenIdle } from '../../timing/when-idle.ts';
import { goTo, indexActions, PALETTE_ACTIONS, type ActionContext, type IndexedAction } from './actions.ts';
import { queryWords, search, type EntryKind, type PaletteEntry } from './matcher.ts';
import { usePaletteIndex, usePaletteLinks, type PaletteIndex } from './palette-index.ts';

/** At most this many items of each kind are shown. */
export const PER_GROUP = 8;
/** With nothing typed, this many recent items of each kind. */
const RECENT = 3;

const GROUPS: readonly { kind: EntryKind; heading: string; from: keyof PaletteIndex | null }[] = [
  // Links come from the token index, already matched and ordered (palette-index.ts, usePaletteLinks).
  { kind: 'link', heading: 'Links', from: null },
  { kind: 'directory', heading: 'Directories', from: 'directories' },
  { kind: 'event', heading: 'Events', from: 'events' },
  { kind: 'task', heading: 'Tasks', from: 'tasks' },
  { kind: 'poll', heading: 'Polls', from: 'polls' },
];

const indexedActions = indexActions(PALETTE_ACTIONS);

/** Opens an item (docs/product.md, Command palette): a link's page in a new tab, the rest in their screen. */
export function openEntry(entry: PaletteEntry, context: ActionContext): void {
  const user = context.username;
  switch (entry.kind) {
    case 'link':
      window.open(entry.target, '_blank', 'noopener,noreferrer');
      return;
    case 'directory':
      context.navigate(user ? `/Links/${user}/dir/${entry.target}` : `/Links?dirId=${entry.target}`);
      context.announce(entry.title);
      return;
    case 'event':
    case 'task':
      goTo(context, 'calendar', `?open=${encodeURIComponent(entry.target)}`);
      return;
    case 'poll':
      if (entry.target) {
        context.navigate(user ? `/Links/${user}/dir/${entry.target}` : `/Links?dirId=${entry.target}`);
        context.announce(entry.title);
      } else goTo(context, 'voting', `?poll=${encodeURIComponent(entry.id)}`);
      return;
  }
}

export interface PaletteResults {
  actions: IndexedAction[];
  screens: IndexedAction[];
  items: { kind: EntryKind; heading: string; entries: PaletteEntry[] }[];
}

/** What the palette lists for `query` (every group, best first, at most PER_GROUP each). */
/** The calendar grid's weeks start on Monday, as the event dialog's typed plan reads them. */
const WEEK_START = 1;

export interface PalettePlan {
  /** 'Add event: Dentist · Tue, Dec 1, 3:30 PM' */
  label: string;
  /** Where it goes: the Calendar's dialog with the phrase in 'Type a plan', previewed for the user to confirm. */
  search: string;
}

/**
 * What typed text offers as a plan (docs/product.md, Command palette): only when it reads a date and a
 * title, so a search for an item is not taken for a plan.
 */
export function palettePlan(typed: string, timeZone: string, now: number): PalettePlan | null {
  // What goes into the address must be well-formed (a lone surrogate cannot be URL-encoded).
  const query = storableText(typed).trim();
  if (query.split(/\s+/).length < 2) return null;
  const reading = readPlan(query, { now, timeZone, weekStart: WEEK_START, dayFirst: isDayFirst() });
  if (!reading.start || reading.title === '') return null;
  const when = planPreviewText(reading, timeZone).rows.find((row) => row.label === 'When' || row.label === 'Due');
  const kind = reading.isTask ? 'task' : 'event';
  return {
    label: `Add ${kind}: ${reading.title}${when ? ` · ${when.value}` : ''}`,
    search: `?new=${kind}&plan=${encodeURIComponent(query)}`,
  };
}

/** `links`: the links found for `query` (usePaletteLinks). */
export function paletteResults(
  index: PaletteIndex,
  query: string,
  links: readonly PaletteEntry[] = [],
): PaletteResults {
  const words = queryWords(query);
  const limit = words.length ? PER_GROUP : RECENT;
  // Actions only by the start of a word: typing an item's name must not select an action first.
  const matched = search(indexedActions, words, indexedActions.length, true);
  return {
    actions: matched.filter((entry) => entry.action.group === 'Actions'),
    screens: matched.filter((entry) => entry.action.group === 'Go to'),
    items: GROUPS.map(({ kind, heading, from }) => ({
      kind,
      heading,
      entries: from === null ? links.slice(0, limit) : search(index[from], words, limit),
    })),
  };
}

const item =
  'flex cursor-default items-center gap-3 rounded-lg px-3 py-2 text-sm text-slate-800 data-[selected=true]:bg-slate-100';
const heading =
  '[&_[cmdk-group-heading]]:px-3 [&_[cmdk-group-heading]]:pt-3 [&_[cmdk-group-heading]]:pb-1 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-semibold [&_[cmdk-group-heading]]:text-slate-600';

export interface CommandPaletteProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  context: ActionContext;
}

export function CommandPalette({ open, onOpenChange, context }: CommandPaletteProps) {
  const { db } = useUserDb();
  const user = useCurrentUser((state) => state.user);
  const { timeZone } = useUserSettings(db, user);
  const [query, setQuery] = useState('');
  // Kept between opens; read again after a change to its tables (palette-index.ts).
  const index = usePaletteIndex(db, open);
  const { links, held } = usePaletteLinks(db, open, query, PER_GROUP, RECENT);
  const results = useMemo(() => paletteResults(index, query, links), [index, query, links]);
  // 'in 2 hours' is read against the minute; the dialog reads the phrase afresh when the user confirms it.
  // The clock runs only while the palette is open: closed, it re-renders nothing.
  const now = useNow(60_000, open).getTime();
  const plan = useMemo(() => palettePlan(query, timeZone, now), [query, timeZone, now]);
  // The date parser's first reading compiles its patterns (tens of milliseconds): done while idle once
  // the palette is open, not on a keystroke.
  useEffect(() => {
    if (open) return whenIdle(() => void palettePlan('Warm up tomorrow 9:00', timeZone, now), 2000);
  }, [open, timeZone, now]);
  const close = () => {
    onOpenChange(false);
    setQuery('');
  };
  const run = (action: IndexedAction) => {
    close();
    action.action.run(context);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if ((event.ctrlKey || event.metaKey) && (event.key === 'k' || event.key === 'K')) {
      event.preventDefault();
      close();
    }
  };
  const actionGroup = (label: string, entries: IndexedAction[]) =>
    entries.length > 0 && (
      <Command.Group heading={label} className={heading}>
        {entries.map((entry) => (
          <Command.Item
            key={entry.action.id}
            value={`action:${entry.action.id}`}
            className={item}
            onSelect={() => run(entry)}
          >
            <span className="min-w-0 flex-1 truncate">{entry.action.label}</span>
            {entry.action.shortcut && (
              <kbd className="rounded border border-slate-300 px-1.5 text-xs text-slate-600">
                {entry.action.shortcut}
              </kbd>
            )}
          </Command.Item>
        ))}
      </Command.Group>
    );
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-dialog bg-black/30" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed top-[12vh] left-1/2 z-dialog w-[min(40rem,calc(100vw-2rem))] -translate-x-1/2 overflow-hidden rounded-xl border border-slate-200 bg-surface shadow-xl"
        >
          <Dialog.Title className="sr-only">Command palette</Dialog.Title>
          {/* data-links says where a keystroke's links come from (held in memory or the token index: the bench waits for them held). */}
          <Command
            shouldFilter={false}
            loop
            label="Search or run a command"
            onKeyDown={onKeyDown}
            data-links={held ? 'held' : 'index'}
          >
            {/* Uncontrolled: cmdk takes the search in the keystroke's own render (a controlled value reaches it
                in an effect, one render later). The field is new at every open (the dialog's content mounts). */}
            <Command.Input
              onValueChange={setQuery}
              placeholder="Search links, events, tasks, polls or commands..."
              className="w-full border-b border-slate-200 px-4 py-3 text-base text-slate-900 outline-none"
            />
            <Command.List className="max-h-[60vh] overflow-y-auto p-2">
              <Command.Empty className="px-3 py-6 text-center text-sm text-slate-600">No results found.</Command.Empty>
              {plan && (
                <Command.Group heading="Plan" className={heading}>
                  <Command.Item
                    value="plan"
                    className={item}
                    onSelect={() => {
                      close();
                      goTo(context, 'calendar', plan.search);
                    }}
                  >
                    <span className="min-w-0 flex-1 truncate">{plan.label}</span>
                  </Command.Item>
                </Command.Group>
              )}
              {actionGroup('Actions', results.actions)}
              {actionGroup('Go to', results.screens)}
              {results.items.map(
                (group) =>
                  group.entries.length > 0 && (
                    <Command.Group key={group.kind} heading={group.heading} className={heading}>
                      {/* Keyed by place: a keystroke gives the rows new items rather than new rows (cmdk
                          registers each row it mounts). */}
                      {group.entries.map((entry, place) => (
                        <Command.Item
                          key={place}
                          value={`${entry.kind}:${entry.id}`}
                          className={item}
                          onSelect={() => {
                            close();
                            openEntry(entry, context);
                          }}
                        >
                          <span className="min-w-0 flex-1 truncate">{entry.title}</span>
                          <span className="max-w-[40%] shrink-0 truncate text-xs text-slate-600">
                            {(entry.kind === 'event' || entry.kind === 'task') && entry.detail
                              ? formatDate(entry.detail, timeZone)
                              : entry.detail}
                          </span>
                        </Command.Item>
                      ))}
                    </Command.Group>
                  ),
              )}
            </Command.List>
          </Command>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
