-- All-day events and tasks: starts_at is the local midnight of the first day in the owner's zone,
-- ends_at the midnight after the last day (a task: equal to starts_at); docs/architecture.md.
alter table public.calendar_events add column all_day boolean not null default false;
