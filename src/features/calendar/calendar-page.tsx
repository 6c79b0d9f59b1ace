import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { OVERDUE_PAGE, useCalendarLists } from '../../data/queries/events.ts';
import { useUserDb } from '../../data/user-db-context.ts';
import { PAST_EVENTS_MAX } from '../../domain/calendar-classify.ts';
import { formatLongDate } from '../../domain/date-format.ts';
import { localDate, toLocalInput } from '../../domain/event-times.ts';
import { FREE_LIMITS } from '../../domain/plans.ts';
import { Button } from '../../ui/button.tsx';
import { usePageTitle } from '../../ui/page-title.ts';
import { afterNextPaint } from '../../timing/after-next-paint.ts';
import { useScreenShown } from '../../ui/screen-shown.ts';
import { PAGES } from '../../domain/pages.ts';
import { ScreenHeader } from '../../ui/screen-header.tsx';
import { CalendarGrid } from './calendar-grid.tsx';
import { InvitationsCard } from './invitations-card.tsx';
import { Card, EventList, TaskList } from './calendar-items.tsx';
import { useCalendarScreen } from './use-calendar-screen.ts';

/**
 * Whether the frame showing `ready` content has been produced: the sections below the today lists
 * (the grid, past events) mount after it, so the first frame holds only what is seen first (a
 * window: docs/scale.md).
 */
function usePaintedOnce(ready: boolean): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    if (!ready || painted) return;
    return afterNextPaint(() => setPainted(true));
  }, [ready, painted]);
  return painted;
}

/** A new item's start on a day picked in the grid: 09:00, or the next full hour today. */
function startOn(day: string, today: string, now: Date, timeZone: string): string {
  if (day !== today) return `${day}T09:00`;
  const next = toLocalInput(new Date(Math.ceil(now.getTime() / 3_600_000) * 3_600_000), timeZone);
  return next.slice(0, 10) === day ? next : `${day}T23:59`;
}

function Counter({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-surface p-4">
      <p className="text-sm text-slate-600">{label}</p>
      <p className="mt-1 text-2xl font-bold text-slate-900 tabular-nums">{value}</p>
    </div>
  );
}

/** 'My Calendar & Tasks' (docs/product.md, Calendar): counters, today's events and tasks, past events, and a month or week grid. */
export function CalendarPage() {
  usePageTitle(PAGES.calendar.title);
  const { now, tier, timeZone, dialogs, actions, toggle } = useCalendarScreen('calendar');
  const { db } = useUserDb();
  // The overdue tasks show their first ones (a window: docs/scale.md); 'Show more' reads further.
  const [overdueShown, setOverdueShown] = useState(OVERDUE_PAGE);
  const read = useCalendarLists(db, now, timeZone, overdueShown);
  useScreenShown(read !== undefined);
  const below = usePaintedOnce(read !== undefined);
  const [params, setParams] = useSearchParams();
  // The dashboard's Quick Add 'Create Event' and the command palette land here with ?new=event or
  // ?new=task (open the dialog once, as an event or a task; with &plan= a phrase typed in the palette,
  // shown in 'Type a plan' with its preview), or ?open={id} (open that item).
  const wantsNew = params.get('new');
  const typedPlan = params.get('plan') ?? undefined;
  const wantsItem = params.get('open');
  const { add, edit } = dialogs;
  useEffect(() => {
    if (wantsNew !== 'event' && wantsNew !== 'task') return;
    add(undefined, wantsNew === 'task', typedPlan);
    setParams(
      (current) => {
        current.delete('new');
        current.delete('plan');
        return current;
      },
      { replace: true },
    );
  }, [wantsNew, typedPlan, add, setParams]);
  useEffect(() => {
    if (!wantsItem) return;
    let live = true;
    void db.calendar_events.get(wantsItem).then((item) => {
      if (!live) return;
      if (item) edit(item);
      setParams(
        (current) => {
          current.delete('open');
          return current;
        },
        { replace: true },
      );
    });
    return () => {
      live = false;
    };
  }, [wantsItem, db, edit, setParams]);
  const today = localDate(now, timeZone);
  const todayLabel = formatLongDate(now, timeZone);
  const taskProps = { timeZone, now, actions, onToggle: toggle };

  return (
    <>
      <ScreenHeader
        title="My Calendar & Tasks"
        subtitle="Plan your events and keep track of your tasks"
        actions={
          <div className="flex flex-wrap items-center gap-3">
            {tier === 'free' && read && (
              <span className="rounded-full bg-slate-100 px-3 py-1 text-sm text-slate-800">
                {read.counts.eventsThisMonth}/{FREE_LIMITS.eventsPerMonth} events this month
              </span>
            )}
            {read && (
              <span className="rounded-full bg-emerald-50 dark:bg-emerald-950/40 px-3 py-1 text-sm text-emerald-800 dark:text-emerald-200">
                {read.counts.completedTasks} completed
              </span>
            )}
            <Button aria-keyshortcuts="n" onClick={() => dialogs.add()}>
              Add Event or Task
            </Button>
          </div>
        }
      />
      {read && (
        <div className="space-y-6">
          <div className="grid grid-cols-3 gap-3">
            <Counter label="Upcoming Events" value={read.counts.upcomingEvents} />
            <Counter label="Pending Tasks" value={read.counts.pendingTasks} />
            <Counter label="Completed" value={read.counts.completedTasks} />
          </div>
          <InvitationsCard timeZone={timeZone} />
          <div className="grid gap-6 lg:grid-cols-2">
            <Card id="today-events" title={`Today's Events · ${todayLabel}`}>
              <EventList
                events={read.lists.todayEvents}
                empty="No events scheduled for today"
                timeZone={timeZone}
                actions={actions}
              />
            </Card>
            <Card id="today-tasks" title="Today's Tasks">
              {read.lists.overdue.length > 0 && (
                <div className="mb-2">
                  <h3 className="text-sm font-semibold text-red-700 dark:text-red-300">Overdue</h3>
                  <TaskList tasks={read.lists.overdue} empty="" tone="overdue" {...taskProps} />
                  {read.overdueMore && (
                    <Button variant="ghost" onClick={() => setOverdueShown((shown) => shown + OVERDUE_PAGE)}>
                      Show more
                    </Button>
                  )}
                </div>
              )}
              <TaskList tasks={read.lists.todayTasks} empty="No tasks for today" {...taskProps} />
              {read.lists.recentlyCompleted.length > 0 && (
                <div className="mt-3 border-t border-slate-100 pt-2">
                  <h3 className="text-sm font-semibold text-slate-800">Recently Completed</h3>
                  <ul className="divide-y divide-slate-100">
                    {read.lists.recentlyCompleted.map((item) => (
                      <li key={item.id} className="flex items-center gap-3 py-1.5">
                        <span className="min-w-0 flex-1 truncate text-sm text-slate-600 line-through">
                          {item.title}
                        </span>
                        <Button variant="ghost" onClick={() => toggle(item, false)} aria-label={`Undo ${item.title}`}>
                          Undo
                        </Button>
                      </li>
                    ))}
                  </ul>
                </div>
              )}
            </Card>
          </div>
          {below && (
            <>
              <CalendarGrid
                timeZone={timeZone}
                today={today}
                now={now}
                onOpen={dialogs.edit}
                onAdd={(day) => dialogs.add(startOn(day, today, now, timeZone))}
              />
              <Card id="past-events" title={`Past Events (${read.counts.pastEvents} total)`}>
                <EventList
                  events={read.lists.pastEvents}
                  empty="No past events"
                  timeZone={timeZone}
                  withDate
                  actions={actions}
                />
                {read.counts.pastEvents > PAST_EVENTS_MAX && (
                  <p className="mt-2 text-sm text-slate-600">
                    Showing {PAST_EVENTS_MAX} of {read.counts.pastEvents} past events
                  </p>
                )}
              </Card>
            </>
          )}
        </div>
      )}
      {dialogs.dialog}
    </>
  );
}
