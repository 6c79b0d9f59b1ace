-- Written by `npm run db:diff` from supabase/schemas: function private.sync_apply_event, function private.sync_insert_series, function public.calendar_events_rules.
-- Review it, then commit it with the schema change.

-- supabase/schemas/rules.sql
create or replace function public.calendar_events_rules() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  tier text := public.tier_of(new.owner_id);
begin
  new.title := btrim(new.title);
  new.description := nullif(new.description, '');
  new.recurrence_rule := coalesce(new.recurrence_rule, 'none');
  if tg_op = 'INSERT' then
    new.quota_month := private.quota_month(new.owner_id, new.created_at);
  else
    new.quota_month := old.quota_month;
  end if;
  if (new.series_id is not null or new.recurrence_rule <> 'none')
     and (tg_op = 'INSERT' or new.series_id is distinct from old.series_id
          or new.recurrence_rule is distinct from old.recurrence_rule)
     and tier = 'free' then
    raise exception 'Recurring events are a Pro feature.' using errcode = 'P0001', hint = 'limit_reached';
  end if;
  -- An all-day item is whole days (docs/architecture.md): it has a date, and an event ends after it starts.
  if new.all_day and new.starts_at is null then
    raise exception 'An all-day item needs a date.' using errcode = '22023', hint = 'invalid';
  end if;
  if new.all_day and not new.is_task and (new.ends_at is null or new.ends_at <= new.starts_at) then
    raise exception 'The end cannot be before the start.' using errcode = '22023', hint = 'invalid';
  end if;
  if tg_op = 'UPDATE' and new.series_id is not null and new.is_task is distinct from old.is_task then
    raise exception 'An event in a recurring series cannot become a task.' using errcode = '22023', hint = 'invalid';
  end if;
  if new.series_id is not null and (tg_op = 'INSERT' or new.series_id is distinct from old.series_id)
     and (select count(*) from public.calendar_events e where e.series_id = new.series_id and e.id <> new.id) >= 1000 then
    raise exception 'A series can have at most 1,000 occurrences.' using errcode = '22023', hint = 'invalid';
  end if;
  if tier = 'free' and not new.is_task and new.deleted_at is null
     and (tg_op = 'INSERT' or old.is_task or old.deleted_at is not null) then
    perform public.lock_account(new.owner_id);
    if (select count(*) from public.calendar_events e
        where e.owner_id = new.owner_id and not e.is_task and e.deleted_at is null and e.id <> new.id
          and e.quota_month = private.quota_month(new.owner_id, now())) >= 10 then
      raise exception 'Upgrade to Pro to create more than 10 events per month.'
        using errcode = 'P0001', hint = 'limit_reached';
    end if;
  end if;
  return new;
end
$$;
revoke all on function public.calendar_events_rules() from public, anon, authenticated, service_role;
grant execute on function public.calendar_events_rules() to service_role;

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
                                          reminder_minutes, all_day)
      values (v_id, private.sync_text(p_args, 'title'), private.sync_text(p_args, 'description'),
              private.sync_time(p_args, 'starts_at'), private.sync_time(p_args, 'ends_at'),
              case when p_args ? 'is_task' then private.sync_bool(p_args, 'is_task') else false end,
              private.sync_text(p_args, 'priority'), auth.uid(), private.sync_reminder(p_args, 'reminder_minutes'),
              case when p_args ? 'all_day' then private.sync_bool(p_args, 'all_day') else false end);
      -- Its mail is queued by the insert's trigger (mail.sql), in this savepoint.
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
        all_day = case when p_args ? 'all_day' then private.sync_bool(p_args, 'all_day') else e.all_day end,
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

-- Inserts one series' occurrences: 1..1,000 objects {id, title, description?, starts_at?, ends_at?},
-- each with the series id, rule, end date, reminder (every occurrence reminds like a single event) and
-- all_day (whole days: each occurrence from its local midnight to a later one).
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
  v_all_day boolean := case when p_args ? 'all_day' then private.sync_bool(p_args, 'all_day') else false end;
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
                                      series_id, recurrence_rule, recurrence_end_date, reminder_minutes, all_day)
  select o.id, o.title, o.description, o.starts_at, o.ends_at, v_is_task, auth.uid(), v_series, v_rule, v_until,
         v_reminder, v_all_day
  from jsonb_to_recordset(p_args -> 'occurrences')
         as o(id uuid, title text, description text, starts_at timestamptz, ends_at timestamptz);
end
$$;
revoke all on function private.sync_insert_series(p_args jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_insert_series(p_args jsonb) to authenticated, service_role;
