-- Reminders: an event or task may carry a reminder, in minutes before it
-- starts (at the time, 5, 15, 30 minutes, 1 hour or 1 day); the profile holds the default that
-- new events and tasks get. Both synced like any other field; null means none.
alter table public.calendar_events add column reminder_minutes integer
  constraint calendar_events_reminder_minutes check (reminder_minutes in (0, 5, 15, 30, 60, 1440));
alter table public.user_profiles add column default_reminder_minutes integer
  constraint user_profiles_default_reminder_minutes check (default_reminder_minutes in (0, 5, 15, 30, 60, 1440));
