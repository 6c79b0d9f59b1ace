-- Written by `npm run db:diff` from supabase/schemas: function private.sync_apply_event, function public.calendar_events_rules, function public.handle_new_user.
-- Review it, then commit it with the schema change.

-- supabase/schemas/accounts.sql
create or replace function public.handle_new_user() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  candidate text;
  chosen text;
  full_name text := left(btrim(coalesce(new.raw_user_meta_data ->> 'full_name', '')), 200);
  -- The zone the signing-up device reported, when the server knows it; else the column's UTC.
  zone text := (select z.name from pg_catalog.pg_timezone_names z
                where z.name = left(new.raw_user_meta_data ->> 'time_zone', 64) limit 1);
begin
  foreach candidate in array array[new.raw_user_meta_data ->> 'username', split_part(coalesce(new.email, ''), '@', 1)] loop
    candidate := public.sanitize_username(candidate);
    if char_length(candidate) >= 3
       and not exists (select 1 from public.user_profiles p where lower(p.username) = candidate) then
      chosen := candidate;
      exit;
    end if;
  end loop;
  begin
    insert into public.user_profiles (id, email, username, full_name, time_zone)
    values (new.id, new.email, chosen, full_name, coalesce(zone, 'UTC'));
  exception when unique_violation then
    -- Taken by a concurrent sign-up: the account still gets its profile, without a username.
    insert into public.user_profiles (id, email, username, full_name, time_zone)
    values (new.id, new.email, null, full_name, coalesce(zone, 'UTC'));
  end;
  return null;
end
$$;
revoke all on function public.handle_new_user() from public, anon, authenticated, service_role;
grant execute on function public.handle_new_user() to service_role;

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
      insert into public.calendar_events (id, title, description, starts_at, ends_at, is_task, priority, owner_id)
      values (v_id, private.sync_text(p_args, 'title'), private.sync_text(p_args, 'description'),
              private.sync_time(p_args, 'starts_at'), private.sync_time(p_args, 'ends_at'),
              case when p_args ? 'is_task' then private.sync_bool(p_args, 'is_task') else false end,
              private.sync_text(p_args, 'priority'), auth.uid());
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
