import { useState, type ReactNode } from 'react';
import type { EventRow } from '../../data/rows.ts';
import { priorityOf } from '../../domain/calendar-classify.ts';
import { dueText, eventWhen } from '../../domain/calendar-texts.ts';
import { RowMenu } from '../../ui/row-menu.tsx';
import { LinkedText } from './linked-text.tsx';

export interface ItemActions {
  onEdit(item: EventRow): void;
  onDelete(item: EventRow): void;
}

/** Edit and Delete for one event or task (docs/product.md, Calendar). */
function ItemMenu({ item, onEdit, onDelete }: { item: EventRow } & ItemActions) {
  return (
    <RowMenu
      label={`Actions for ${item.title}`}
      items={[
        { label: 'Edit', onSelect: () => onEdit(item) },
        { label: 'Delete', onSelect: () => onDelete(item), tone: 'danger' },
      ]}
    />
  );
}

/** One of a screen's cards, named by its heading. */
export function Card({ id, title, children }: { id: string; title: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-2xl border border-slate-200 bg-surface p-4">
      <h2 id={id} className="mb-2 text-base font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A list's empty text, or its items. */
export function ItemList({ empty, children }: { empty: string; children: ReactNode[] }) {
  if (children.length === 0) return <p className="py-2 text-sm text-slate-600">{empty}</p>;
  return <ul className="divide-y divide-slate-100">{children}</ul>;
}

export interface TaskListProps {
  tasks: readonly EventRow[];
  timeZone: string;
  now: Date;
  actions: ItemActions;
  onToggle(item: EventRow, value: boolean): void;
  tone?: 'normal' | 'overdue';
}

/** Tasks with their toggles ('Overdue' in red). */
export function TaskList({ tasks, empty, ...props }: TaskListProps & { empty: string }) {
  return (
    <ItemList empty={empty}>
      {tasks.map((item) => (
        <TaskItem key={item.id} item={item} {...props} />
      ))}
    </ItemList>
  );
}

/** Events with their times (and dates when `withDate`). */
export function EventList({
  events,
  empty,
  ...props
}: {
  events: readonly EventRow[];
  empty: string;
  timeZone: string;
  withDate?: boolean;
  actions: ItemActions;
}) {
  return (
    <ItemList empty={empty}>
      {events.map((item) => (
        <EventItem key={item.id} item={item} {...props} />
      ))}
    </ItemList>
  );
}

const priorityTone = {
  high: 'bg-red-100 dark:bg-red-900/50 text-red-800 dark:text-red-200',
  medium: 'bg-amber-100 dark:bg-amber-900/50 text-amber-900 dark:text-amber-100',
  low: 'bg-slate-100 text-slate-700',
} as const;

export function PriorityBadge({ item }: { item: EventRow }) {
  const priority = priorityOf(item);
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-medium capitalize ${priorityTone[priority]}`}>
      {priority}
    </span>
  );
}

function RepeatBadge({ item }: { item: EventRow }) {
  if (!item.series_id) return null;
  return (
    <span
      className="rounded-full bg-brand-50 dark:bg-brand-950/40 px-2 py-0.5 text-xs text-brand-700 dark:text-brand-300"
      title="Part of a recurring series"
    >
      ↻ {item.recurrence_rule}
    </span>
  );
}

/** A description that opens on click (docs/product.md, Calendar: 'title and description (expand on click)'). */
function Description({ text }: { text: string }) {
  const [open, setOpen] = useState(false);
  return (
    <button
      type="button"
      aria-expanded={open}
      onClick={() => setOpen(!open)}
      className={`mt-0.5 block w-full text-left text-sm text-slate-600 ${open ? 'whitespace-pre-wrap' : 'truncate'}`}
    >
      <LinkedText text={text} />
    </button>
  );
}

/** An event: its time in the user's locale ('All day'; the day too when `withDate`), title, description and menu. */
function EventItem({
  item,
  timeZone,
  withDate = false,
  actions,
}: {
  item: EventRow;
  timeZone: string;
  withDate?: boolean;
  actions: ItemActions;
}) {
  return (
    <li className="flex items-start gap-3 py-2">
      <span
        className={`${withDate ? 'w-36' : 'w-20'} shrink-0 text-sm font-medium whitespace-nowrap text-slate-700 tabular-nums`}
      >
        {eventWhen(item, timeZone, { withDate })}
      </span>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <LinkedText text={item.title} className="font-medium text-slate-900" />
          <RepeatBadge item={item} />
        </div>
        {item.description && <Description text={item.description} />}
      </div>
      <ItemMenu item={item} {...actions} />
    </li>
  );
}

/** A task: the complete toggle, title, priority badge, 'Due:' text and menu. */
function TaskItem({
  item,
  timeZone,
  now,
  actions,
  onToggle,
  tone = 'normal',
}: Omit<TaskListProps, 'tasks'> & { item: EventRow }) {
  return (
    <li className="flex items-start gap-3 py-2">
      <input
        type="checkbox"
        className="mt-1 h-4 w-4 accent-brand-600"
        checked={item.is_completed}
        aria-label={`Complete ${item.title}`}
        onChange={(event) => onToggle(item, event.target.checked)}
      />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <LinkedText
            text={item.title}
            className={`font-medium ${tone === 'overdue' ? 'text-red-700 dark:text-red-300' : 'text-slate-900'}`}
          />
          <PriorityBadge item={item} />
        </div>
        {item.description && <Description text={item.description} />}
        <p className={`mt-0.5 text-xs ${tone === 'overdue' ? 'text-red-700 dark:text-red-300' : 'text-slate-600'}`}>
          {dueText(item, now, timeZone)}
        </p>
      </div>
      <ItemMenu item={item} {...actions} />
    </li>
  );
}
