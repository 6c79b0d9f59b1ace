-- Written by `npm run db:diff` from supabase/schemas: trigger public.calendar_events.t40_mail, trigger public.directory_members.t40_mail, function private.queue_row_mail, function private.calendar_events_mail (dropped), function private.directory_members_mail (dropped).
-- Review it, then commit it with the schema change.

-- supabase/schemas/mail.sql
-- The invitation of a new member ('invitation', on directory_members), or 'Event Created' of a new
-- single event ('event', on calendar_events; not a task, not an occurrence of a series).
create or replace function private.queue_row_mail() returns trigger
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  case tg_argv[0]
    when 'invitation' then perform private.queue_invitation_mail(new.id);
    when 'event' then perform private.queue_event_mail(new.id);
  end case;
  return null;
end
$$;
revoke all on function private.queue_row_mail() from public, anon, authenticated, service_role;
grant execute on function private.queue_row_mail() to service_role;

create or replace trigger t40_mail after insert on public.directory_members
  for each row execute function private.queue_row_mail('invitation');

create or replace trigger t40_mail after insert on public.calendar_events
  for each row when (new.series_id is null and not new.is_task)
  execute function private.queue_row_mail('event');

-- No schema file declares these any more:
drop function private.calendar_events_mail();
drop function private.directory_members_mail();
