-- sync_push mutation families, part 2: events and tasks, recurring series, polls and votes.
-- Series are expanded on the client and pushed as concrete occurrences (design section 3).

create or replace function public.sync_apply_event(p_name text, p_args jsonb) returns void
language plpgsql
set search_path = ''
as $$
declare
  v_id uuid := public.sync_uuid(p_args, 'id');
begin
  case p_name
    when 'event.create' then
      insert into public.calendar_events (id, title, description, starts_at, ends_at, is_task, priority, owner_id)
      values (v_id, p_args ->> 'title', p_args ->> 'description', (p_args ->> 'starts_at')::timestamptz,
              (p_args ->> 'ends_at')::timestamptz,
              case when p_args ? 'is_task' then public.sync_bool(p_args, 'is_task') else false end, p_args ->> 'priority',
              auth.uid());
      return;
    when 'event.update', 'occurrence.detach' then
      update public.calendar_events e set
        title = case when p_args ? 'title' then p_args ->> 'title' else e.title end,
        description = case when p_args ? 'description' then p_args ->> 'description' else e.description end,
        starts_at = case when p_args ? 'starts_at' then (p_args ->> 'starts_at')::timestamptz else e.starts_at end,
        ends_at = case when p_args ? 'ends_at' then (p_args ->> 'ends_at')::timestamptz else e.ends_at end,
        priority = case when p_args ? 'priority' and p_name = 'event.update' then p_args ->> 'priority'
                        else e.priority end,
        series_id = case when p_name = 'occurrence.detach' then null else e.series_id end,
        recurrence_rule = case when p_name = 'occurrence.detach' then 'none' else e.recurrence_rule end,
        recurrence_end_date = case when p_name = 'occurrence.detach' then null else e.recurrence_end_date end
      where e.id = v_id and e.deleted_at is null;
    when 'task.set_completed' then
      update public.calendar_events e set is_completed = public.sync_bool(p_args, 'value')
      where e.id = v_id and e.deleted_at is null;
    when 'event.delete' then
      update public.calendar_events e set deleted_at = now() where e.id = v_id and e.deleted_at is null;
  end case;
  if not found then
    perform public.sync_missing('calendar_events', v_id, p_name = 'event.delete');
  end if;
end
$$;

-- Inserts one series' occurrences: 1..1,000, each with the series id, rule and end date.
create or replace function public.sync_insert_series(p_args jsonb) returns void
language plpgsql
set search_path = ''
as $$
declare
  v_series uuid := public.sync_uuid(p_args, 'series_id');
  v_rule text := p_args ->> 'rule';
  v_until timestamptz := (p_args ->> 'until')::timestamptz;
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
             where jsonb_typeof(o) <> 'object' or jsonb_typeof(o -> 'id') is distinct from 'string') then
    raise exception 'Every occurrence needs an id.' using errcode = '22023';
  end if;
  insert into public.calendar_events (id, title, description, starts_at, ends_at, is_task, owner_id,
                                      series_id, recurrence_rule, recurrence_end_date)
  select o.id, o.title, o.description, o.starts_at, o.ends_at,
         coalesce((p_args ->> 'is_task')::boolean, false), auth.uid(), v_series, v_rule, v_until
  from jsonb_to_recordset(p_args -> 'occurrences')
         as o(id uuid, title text, description text, starts_at timestamptz, ends_at timestamptz);
end
$$;

create or replace function public.sync_apply_series(p_name text, p_args jsonb) returns void
language plpgsql
set search_path = ''
as $$
declare
  v_old uuid;
begin
  case p_name
    when 'series.create' then
      perform public.sync_insert_series(p_args);
    when 'series.replace' then
      -- One mutation, one savepoint: the old set goes and the new set comes, or neither.
      v_old := public.sync_uuid(p_args, 'old_series_id');
      if not exists (select 1 from public.calendar_events e where e.series_id = v_old) then
        raise exception 'Not found.' using errcode = 'P0002';
      end if;
      update public.calendar_events e set deleted_at = now() where e.series_id = v_old and e.deleted_at is null;
      perform public.sync_insert_series(p_args);
    when 'series.delete' then
      v_old := public.sync_uuid(p_args, 'series_id');
      update public.calendar_events e set deleted_at = now() where e.series_id = v_old and e.deleted_at is null;
      if not found and not exists (select 1 from public.calendar_events e where e.series_id = v_old) then
        raise exception 'Not found.' using errcode = 'P0002';
      end if;
  end case;
end
$$;

create or replace function public.sync_apply_poll(p_name text, p_args jsonb) returns void
language plpgsql
set search_path = ''
as $$
declare
  v_id uuid := public.sync_uuid(p_args, 'id');
  v_options jsonb;
begin
  case p_name
    when 'poll.create' then
      if jsonb_typeof(p_args -> 'options') is distinct from 'array' then
        raise exception 'Please provide at least 2 voting options' using errcode = '22023', hint = 'invalid';
      end if;
      if jsonb_array_length(p_args -> 'options') not between 2 and 6
         or exists (select 1 from jsonb_array_elements(p_args -> 'options') o
                    where jsonb_typeof(o) <> 'string' or btrim(o #>> '{}') = '') then
        raise exception 'Please provide at least 2 voting options' using errcode = '22023', hint = 'invalid';
      end if;
      select jsonb_agg(jsonb_build_object('text', btrim(o #>> '{}'), 'votes', 0) order by n) into v_options
      from jsonb_array_elements(p_args -> 'options') with ordinality x(o, n);
      insert into public.voting_posts (id, title, description, options, deadline, directory_id, created_by_id)
      values (v_id, p_args ->> 'title', p_args ->> 'description', v_options, (p_args ->> 'deadline')::timestamptz,
              (p_args ->> 'directory_id')::uuid, auth.uid());
    when 'poll.vote' then
      if jsonb_typeof(p_args -> 'option_index') is distinct from 'number' then
        raise exception 'Invalid option.' using errcode = '22023', hint = 'invalid';
      end if;
      insert into public.user_votes (id, post_id, option_index, user_id, user_email)
      values (v_id, public.sync_uuid(p_args, 'post_id'), (p_args ->> 'option_index')::int, auth.uid(),
              lower(auth.email()));
  end case;
end
$$;

revoke all on function public.sync_apply_event(text, jsonb), public.sync_insert_series(jsonb),
  public.sync_apply_series(text, jsonb), public.sync_apply_poll(text, jsonb)
  from public, anon;
grant execute on function public.sync_apply_event(text, jsonb), public.sync_insert_series(jsonb),
  public.sync_apply_series(text, jsonb), public.sync_apply_poll(text, jsonb)
  to authenticated, service_role;
