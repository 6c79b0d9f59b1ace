import type { ReactNode } from 'react';
import type { EventRow } from '../../data/rows.ts';
import { dueText, eventWhen } from '../../domain/calendar-texts.ts';
import type { TodaysFocus as Focus } from '../../domain/dashboard.ts';

function Group({
  title,
  tone = 'normal',
  children,
}: {
  title: string;
  tone?: 'normal' | 'overdue';
  children: ReactNode;
}) {
  return (
    <div>
      <h3
        className={`text-sm font-semibold ${tone === 'overdue' ? 'text-red-700 dark:text-red-300' : 'text-slate-800'}`}
      >
        {title}
      </h3>
      <ul className="divide-y divide-slate-100">{children}</ul>
    </div>
  );
}

function Row({ title, detail, tone = 'normal' }: { title: string; detail: string; tone?: 'normal' | 'overdue' }) {
  return (
    <li className="flex items-baseline gap-3 py-1.5 text-sm">
      <span className="min-w-0 flex-1 truncate text-slate-900">{title}</span>
      <span
        className={`shrink-0 tabular-nums ${tone === 'overdue' ? 'text-red-700 dark:text-red-300' : 'text-slate-600'}`}
      >
        {detail}
      </span>
    </li>
  );
}

/** Today's Focus (docs/product.md, Dashboard; Calendar): today's events, overdue tasks and today's tasks, in the user's zone. */
export function TodaysFocus({ focus, now, timeZone }: { focus: Focus<EventRow>; now: Date; timeZone: string }) {
  return (
    <section aria-labelledby="todays-focus" className="rounded-2xl border border-slate-200 bg-surface p-4">
      <h2 id="todays-focus" className="mb-2 text-base font-semibold text-slate-900">
        Today&apos;s Focus
      </h2>
      {focus.empty ? (
        <p className="py-2 text-sm text-slate-600">Nothing scheduled for today</p>
      ) : (
        <div className="space-y-3">
          {focus.events.length > 0 && (
            <Group title="Events">
              {focus.events.map((item) => (
                <Row key={item.id} title={item.title} detail={eventWhen(item, timeZone)} />
              ))}
            </Group>
          )}
          {focus.overdue.length > 0 && (
            <Group title="Overdue" tone="overdue">
              {focus.overdue.map((item) => (
                <Row key={item.id} title={item.title} detail={dueText(item, now, timeZone)} tone="overdue" />
              ))}
            </Group>
          )}
          {focus.tasks.length > 0 && (
            <Group title="Tasks">
              {focus.tasks.map((item) => (
                <Row key={item.id} title={item.title} detail={dueText(item, now, timeZone)} />
              ))}
            </Group>
          )}
        </div>
      )}
    </section>
  );
}
