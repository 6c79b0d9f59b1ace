import { useState } from 'react';
import { UPCOMING_PAGE, useUpcoming } from '../../data/queries/events.ts';
import { useUserDb } from '../../data/user-db-context.ts';
import { Button } from '../../ui/button.tsx';
import { usePageTitle } from '../../ui/page-title.ts';
import { PAGES } from '../../domain/pages.ts';
import { ScreenHeader } from '../../ui/screen-header.tsx';
import { Card, EventList, TaskList } from './calendar-items.tsx';
import { useCalendarScreen } from './use-calendar-screen.ts';

/**
 * Upcoming (docs/product.md, Upcoming): future events and pending tasks dated from the start of tomorrow, with
 * edit and delete, and the same dialog as the calendar. It lives in the calendar feature because
 * the two screens share the dialog and the rules.
 */
export function UpcomingPage() {
  usePageTitle(PAGES.upcoming.title);
  const { now, timeZone, dialogs, actions, toggle } = useCalendarScreen('upcoming');
  const { db } = useUserDb();
  // Each list shows its first items (a window: docs/scale.md); 'Show more' reads further.
  const [limit, setLimit] = useState(UPCOMING_PAGE);
  const lists = useUpcoming(db, now, timeZone, limit);

  return (
    <>
      <ScreenHeader
        title="Upcoming"
        subtitle="What is coming from tomorrow on"
        actions={
          <Button aria-keyshortcuts="n" onClick={() => dialogs.add()}>
            Add Event/Task
          </Button>
        }
      />
      {lists && (
        <div className="grid gap-6 lg:grid-cols-2">
          <Card id="future-events" title="Future Events">
            <EventList
              events={lists.futureEvents}
              empty="No upcoming events"
              timeZone={timeZone}
              withDate
              actions={actions}
            />
          </Card>
          <Card id="pending-tasks" title="Pending Tasks">
            <TaskList
              tasks={lists.pendingTasks}
              empty="No upcoming tasks"
              timeZone={timeZone}
              now={now}
              actions={actions}
              onToggle={toggle}
            />
          </Card>
        </div>
      )}
      {lists?.more && (
        <div className="mt-4 flex justify-center">
          <Button variant="secondary" onClick={() => setLimit((shown) => shown + UPCOMING_PAGE)}>
            Show more
          </Button>
        </div>
      )}
      {dialogs.dialog}
    </>
  );
}
