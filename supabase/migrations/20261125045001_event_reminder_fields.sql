-- Written by `npm run db:diff` from supabase/schemas: function private.sync_apply_event, function private.sync_apply_profile, function private.sync_insert_series, function private.sync_reminder.
-- Review it, then commit it with the schema change.

-- supabase/schemas/sync_apply.sql
create or replace function private.sync_apply_event(p_name text, p_args jsonb) returns void
language plpgsql
set search_path = ''
as $$
declare
  v_id uuid := private.sync_uuid(p_args, 'id');
begin
  case p_name
    when 'event.create' then
      insert into public.calendar_events (id, title, description, starts_at, ends_at, is_task, priority, owner_id,
                                          reminder_minutes)
      values (v_id, private.sync_text(p_args, 'title'), private.sync_text(p_args, 'description'),
              private.sync_time(p_args, 'starts_at'), private.sync_time(p_args, 'ends_at'),
              case when p_args ? 'is_task' then private.sync_bool(p_args, 'is_task') else false end,
              private.sync_text(p_args, 'priority'), auth.uid(), private.sync_reminder(p_args, 'reminder_minutes'));
      -- Same savepoint as the insert: a refusal takes the mail back, a replay never gets here.
      perform private.queue_event_mail(v_id);
      return;
    when 'event.update', 'occurrence.detach' then
      update public.calendar_events e set
        title = case when p_args ? 'title' then private.sync_text(p_args, 'title') else e.title end,
        description = case when p_args ? 'description' then private.sync_text(p_args, 'description')
                           else e.description end,
        starts_at = case when p_args ? 'starts_at' then private.sync_time(p_args, 'starts_at') else e.starts_at end,
        ends_at = case when p_args ? 'ends_at' then private.sync_time(p_args, 'ends_at') else e.ends_at end,
        is_task = case when p_args ? 'is_task' and p_name = 'event.update' then private.sync_bool(p_args, 'is_task')
                       else e.is_task end,
        -- Events have no priority: turning a task into an event clears it.
        priority = case when p_args ? 'is_task' and p_name = 'event.update' and not private.sync_bool(p_args, 'is_task')
                          then null
                        when p_args ? 'priority' and p_name = 'event.update' then private.sync_text(p_args, 'priority')
                        else e.priority end,
        reminder_minutes = case when p_args ? 'reminder_minutes' then private.sync_reminder(p_args, 'reminder_minutes')
                                else e.reminder_minutes end,
        series_id = case when p_name = 'occurrence.detach' then null else e.series_id end,
        recurrence_rule = case when p_name = 'occurrence.detach' then 'none' else e.recurrence_rule end,
        recurrence_end_date = case when p_name = 'occurrence.detach' then null else e.recurrence_end_date end
      where e.id = v_id and e.deleted_at is null;
    when 'task.set_completed' then
      update public.calendar_events e set is_completed = private.sync_bool(p_args, 'value')
      where e.id = v_id and e.deleted_at is null;
    when 'event.delete' then
      update public.calendar_events e set deleted_at = now() where e.id = v_id and e.deleted_at is null;
  end case;
  if not found then
    perform private.sync_missing('calendar_events', v_id, p_name = 'event.delete');
  end if;
end
$$;
revoke all on function private.sync_apply_event(p_name text, p_args jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_apply_event(p_name text, p_args jsonb) to authenticated, service_role;

create or replace function private.sync_apply_profile(p_name text, p_args jsonb) returns void
language plpgsql
set search_path = ''
as $$
begin
  update public.user_profiles p set
    username = case when p_args ? 'username' then private.sync_text(p_args, 'username') else p.username end,
    bio = case when p_args ? 'bio' then private.sync_text(p_args, 'bio') else p.bio end,
    full_name = case when p_args ? 'full_name' then private.sync_text(p_args, 'full_name') else p.full_name end,
    time_zone = case when p_args ? 'time_zone' then private.sync_text(p_args, 'time_zone') else p.time_zone end,
    default_reminder_minutes = case when p_args ? 'default_reminder_minutes'
                                      then private.sync_reminder(p_args, 'default_reminder_minutes')
                                    else p.default_reminder_minutes end
  where p.id = auth.uid();
  if not found then
    raise exception 'Not authenticated' using errcode = '42501';
  end if;
end
$$;
revoke all on function private.sync_apply_profile(p_name text, p_args jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_apply_profile(p_name text, p_args jsonb) to authenticated, service_role;

-- Inserts one series' occurrences: 1..1,000 objects {id, title, description?, starts_at?, ends_at?},
-- each with the series id, rule, end date and reminder (every occurrence reminds like a single event).
create or replace function private.sync_insert_series(p_args jsonb) returns void
language plpgsql
set search_path = ''
as $$
declare
  v_series uuid := private.sync_uuid(p_args, 'series_id');
  v_rule text := private.sync_text(p_args, 'rule');
  v_until timestamptz := private.sync_time(p_args, 'until');
  v_is_task boolean := case when coalesce(jsonb_typeof(p_args -> 'is_task'), 'null') = 'null' then false
                            else private.sync_bool(p_args, 'is_task') end;
  v_reminder integer := private.sync_reminder(p_args, 'reminder_minutes');
  v_count int;
begin
  if jsonb_typeof(p_args -> 'occurrences') is distinct from 'array' then
    raise exception 'A series needs its occurrences.' using errcode = '22023';
  end if;
  v_count := jsonb_array_length(p_args -> 'occurrences');
  if v_count = 0 or v_rule is null or v_rule not in ('daily', 'weekly', 'monthly') or v_until is null then
    raise exception 'A series needs a rule, an end date and at least one occurrence.' using errcode = '22023';
  end if;
  if v_count > 1000 then
    raise exception 'A series can have at most 1,000 occurrences.' using errcode = '22023', hint = 'invalid';
  end if;
  if exists (select 1 from jsonb_array_elements(p_args -> 'occurrences') o
             where jsonb_typeof(o) <> 'object'
                or (o ->> 'id') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
                or jsonb_typeof(o -> 'id') <> 'string'
                or exists (select 1 from unnest(array['title', 'description', 'starts_at', 'ends_at']) k
                           where coalesce(jsonb_typeof(o -> k), 'null') not in ('string', 'null'))) then
    raise exception 'Every occurrence needs an id, and text fields.' using errcode = '22023';
  end if;
  insert into public.calendar_events (id, title, description, starts_at, ends_at, is_task, owner_id,
                                      series_id, recurrence_rule, recurrence_end_date, reminder_minutes)
  select o.id, o.title, o.description, o.starts_at, o.ends_at, v_is_task, auth.uid(), v_series, v_rule, v_until,
         v_reminder
  from jsonb_to_recordset(p_args -> 'occurrences')
         as o(id uuid, title text, description text, starts_at timestamptz, ends_at timestamptz);
end
$$;
revoke all on function private.sync_insert_series(p_args jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_insert_series(p_args jsonb) to authenticated, service_role;

-- supabase/schemas/sync_helpers.sql

-- An optional reminder argument (minutes before the start): absent or null is null,
-- one of 0, 5, 15, 30, 60 or 1440 is itself, anything else raises (invalid).
create or replace function private.sync_reminder(p_args jsonb, p_key text) returns integer
language plpgsql immutable
set search_path = ''
as $$
begin
  case coalesce(jsonb_typeof(p_args -> p_key), 'null')
    when 'null' then return null;
    when 'number' then
      if (p_args ->> p_key) in ('0', '5', '15', '30', '60', '1440') then
        return (p_args ->> p_key)::integer;
      end if;
    else null;
  end case;
  raise exception 'Choose a reminder from the list.' using errcode = '22023', hint = 'invalid';
end
$$;
revoke all on function private.sync_reminder(p_args jsonb, p_key text) from public, anon, authenticated, service_role;
grant execute on function private.sync_reminder(p_args jsonb, p_key text) to authenticated, service_role;
