import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Temporal } from 'temporal-polyfill';
import type { EventRow } from '../../data/rows.ts';
import { useDayItems } from '../../data/queries/events.ts';
import { useUserDb } from '../../data/user-db-context.ts';
import { monthGrid, weekDays } from '../../domain/calendar-classify.ts';
import { dueText, eventWhen } from '../../domain/calendar-texts.ts';
import { formatPlainDay } from '../../domain/date-format.ts';
import { Button } from '../../ui/button.tsx';

export type GridView = 'month' | 'week';

export interface CalendarGridProps {
  timeZone: string;
  /** Today's 'YYYY-MM-DD' in the user's time zone (from the screen's clock, so it follows midnight). */
  today: string;
  /** The screen's clock, for the tasks' 'Due:' texts. */
  now: Date;
  onOpen(item: EventRow): void;
  /** Adds an item on a day ('YYYY-MM-DD'). */
  onAdd(day: string): void;
}

const NOTHING_PLACED: ReadonlyMap<string, readonly EventRow[]> = new Map();
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const CHIPS_PER_DAY = { month: 3, week: 8 } as const;

const format = formatPlainDay;

function label(day: string): string {
  return format(day, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
}

function heading(view: GridView, anchor: string): string {
  if (view === 'month') return format(anchor, { month: 'long', year: 'numeric' });
  const days = weekDays(anchor);
  return `${format(days[0]!, { day: 'numeric', month: 'short' })} – ${format(days[6]!, { day: 'numeric', month: 'short', year: 'numeric' })}`;
}

/**
 * A month or week a user can move through (docs/product.md, Calendar lists only today's and past items; a calendar
 * is useful beyond them): events and tasks sit on their days, the arrows move between days as in
 * the WAI-ARIA grid pattern (one tab stop, Home/End for the week's ends, PageUp/PageDown for the
 * previous or next period), and Enter on a day shows its agenda below, where items open and one
 * can be added on that day.
 */
export function CalendarGrid({ timeZone, today, now, onOpen, onAdd }: CalendarGridProps) {
  const { db } = useUserDb();
  const [view, setView] = useState<GridView>('month');
  const [anchor, setAnchor] = useState(today);
  const [selected, setSelected] = useState(today);
  const [shownToday, setShownToday] = useState(today);
  // Past midnight, a grid left on the old today moves to the new one (a day the user picked stays).
  if (shownToday !== today) {
    setShownToday(today);
    if (selected === shownToday) {
      setSelected(today);
      setAnchor(today);
    }
  }
  const gridRef = useRef<HTMLDivElement>(null);

  const days = useMemo(() => (view === 'month' ? monthGrid(anchor.slice(0, 7)) : weekDays(anchor)), [view, anchor]);
  // Only the items on these days are read (events.ts); an empty grid shows while they are.
  const placed = useDayItems(db, days[0]!, days[days.length - 1]!, timeZone) ?? NOTHING_PLACED;
  const month = anchor.slice(0, 7);

  function move(day: string, focus: boolean) {
    setSelected(day);
    if (!days.includes(day) || (view === 'month' && day.slice(0, 7) !== month)) setAnchor(day);
    if (focus) requestAnimationFrame(() => gridRef.current?.querySelector<HTMLElement>(`[data-day="${day}"]`)?.focus());
  }

  function shift(by: 1 | -1) {
    const date = Temporal.PlainDate.from(selected);
    move((view === 'month' ? date.add({ months: by }) : date.add({ weeks: by })).toString(), false);
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const date = Temporal.PlainDate.from(selected);
    const steps: Record<string, () => Temporal.PlainDate> = {
      ArrowLeft: () => date.subtract({ days: 1 }),
      ArrowRight: () => date.add({ days: 1 }),
      ArrowUp: () => date.subtract({ weeks: 1 }),
      ArrowDown: () => date.add({ weeks: 1 }),
      Home: () => date.subtract({ days: date.dayOfWeek - 1 }),
      End: () => date.add({ days: 7 - date.dayOfWeek }),
      PageUp: () => (view === 'month' ? date.subtract({ months: 1 }) : date.subtract({ weeks: 1 })),
      PageDown: () => (view === 'month' ? date.add({ months: 1 }) : date.add({ weeks: 1 })),
    };
    const next = steps[event.key];
    if (!next) return;
    event.preventDefault();
    move(next().toString(), true);
  }

  const agenda = placed.get(selected) ?? [];

  return (
    <section aria-labelledby="calendar-grid-heading" className="rounded-2xl border border-slate-200 bg-surface p-4">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id="calendar-grid-heading" className="text-lg font-semibold text-slate-900" aria-live="polite">
          {heading(view, anchor)}
        </h2>
        <div className="flex flex-wrap items-center gap-2">
          <div role="group" aria-label="View" className="flex rounded-lg border border-slate-300 p-0.5">
            {(['month', 'week'] as const).map((option) => (
              <button
                key={option}
                type="button"
                aria-pressed={view === option}
                onClick={() => setView(option)}
                className={`rounded-md px-3 py-1 text-sm capitalize ${view === option ? 'bg-brand-600 text-white' : 'text-slate-700'}`}
              >
                {option}
              </button>
            ))}
          </div>
          <Button variant="secondary" aria-label={`Previous ${view}`} onClick={() => shift(-1)}>
            ‹
          </Button>
          <Button variant="secondary" onClick={() => move(today, false)}>
            Today
          </Button>
          <Button variant="secondary" aria-label={`Next ${view}`} onClick={() => shift(1)}>
            ›
          </Button>
        </div>
      </div>
      <div role="grid" aria-labelledby="calendar-grid-heading" ref={gridRef} onKeyDown={onKeyDown}>
        <div role="row" className="grid grid-cols-7 text-center text-xs font-medium text-slate-600">
          {WEEKDAYS.map((name) => (
            <div role="columnheader" key={name} className="py-1">
              {name}
            </div>
          ))}
        </div>
        {Array.from({ length: days.length / 7 }, (_, week) => (
          <div role="row" key={week} className="grid grid-cols-7 gap-px border-t border-slate-100">
            {days.slice(week * 7, week * 7 + 7).map((day) => {
              const dayItems = placed.get(day) ?? [];
              const outside = view === 'month' && day.slice(0, 7) !== month;
              const shown = dayItems.slice(0, CHIPS_PER_DAY[view]);
              return (
                <div role="gridcell" key={day} aria-selected={day === selected}>
                  <button
                    type="button"
                    data-day={day}
                    tabIndex={day === selected ? 0 : -1}
                    aria-label={`${label(day)}${day === today ? ', today' : ''}, ${dayItems.length} ${dayItems.length === 1 ? 'item' : 'items'}`}
                    onClick={() => move(day, false)}
                    className={`flex w-full flex-col items-stretch gap-0.5 rounded-md p-1 text-left focus-visible:outline-2 focus-visible:outline-brand-600 ${view === 'month' ? 'min-h-20' : 'min-h-40'} ${day === selected ? 'bg-brand-50 dark:bg-brand-950/40' : 'hover:bg-slate-50'} ${outside ? 'text-slate-500' : 'text-slate-900'}`}
                  >
                    <span
                      className={`self-start rounded-full px-1.5 text-xs tabular-nums ${day === today ? 'bg-brand-600 font-semibold text-white' : ''}`}
                    >
                      {Number(day.slice(8, 10))}
                    </span>
                    {shown.map((item) => (
                      <span
                        key={item.id}
                        className={`truncate rounded px-1 text-[11px] leading-4 ${item.is_task ? 'bg-amber-50 dark:bg-amber-950/40 text-amber-900 dark:text-amber-100' : 'bg-brand-50 dark:bg-brand-950/40 text-brand-800 dark:text-brand-200'} ${item.is_completed ? 'line-through' : ''}`}
                      >
                        {!item.is_task && item.starts_at ? `${eventWhen(item, timeZone)} ` : ''}
                        {item.title}
                      </span>
                    ))}
                    {dayItems.length > shown.length && (
                      <span className="text-[11px] text-slate-600">+{dayItems.length - shown.length} more</span>
                    )}
                  </button>
                </div>
              );
            })}
          </div>
        ))}
      </div>
      <div className="mt-4 border-t border-slate-100 pt-3">
        <div className="flex items-center justify-between gap-2">
          <h3 className="text-sm font-semibold text-slate-900">{label(selected)}</h3>
          <Button variant="ghost" onClick={() => onAdd(selected)}>
            + Add on this day
          </Button>
        </div>
        {agenda.length === 0 ? (
          <p className="mt-1 text-sm text-slate-600">Nothing planned.</p>
        ) : (
          <ul className="mt-1 divide-y divide-slate-100">
            {agenda.map((item) => (
              <li key={item.id} className="flex items-center gap-3 py-1.5">
                <span className="w-28 shrink-0 text-sm whitespace-nowrap text-slate-600 tabular-nums">
                  {item.is_task ? dueText(item, now, timeZone) : eventWhen(item, timeZone)}
                </span>
                <button
                  type="button"
                  onClick={() => onOpen(item)}
                  className={`min-w-0 flex-1 truncate text-left text-sm text-slate-900 hover:underline ${item.is_completed ? 'line-through' : ''}`}
                >
                  {item.title}
                </button>
                <span className="text-xs text-slate-500">{item.is_task ? 'Task' : 'Event'}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
