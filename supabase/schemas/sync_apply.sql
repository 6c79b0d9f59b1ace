-- Sync apply: one function per mutation family, run as the caller (RLS and rule triggers apply).
--
-- The current definitions (docs/architecture.md, "Rules written once"): edit here, then run
-- `npm run db:diff` to write the migration. Tables, columns and data changes stay in migrations.

-- Runs one named mutation (the name is known; sync_push_one checked it).
create or replace function private.sync_apply(p_name text, p_args jsonb) returns void
language plpgsql
set search_path = ''
as $$
begin
  case split_part(p_name, '.', 1)
    when 'profile' then perform private.sync_apply_profile(p_name, p_args);
    when 'directory' then perform private.sync_apply_directory(p_name, p_args);
    when 'link' then perform private.sync_apply_link(p_name, p_args);
    when 'member' then perform private.sync_apply_member(p_name, p_args);
    when 'event', 'task', 'occurrence' then perform private.sync_apply_event(p_name, p_args);
    when 'series' then perform private.sync_apply_series(p_name, p_args);
    when 'poll' then perform private.sync_apply_poll(p_name, p_args);
    when 'invitation' then perform private.invitation_answer(private.sync_uuid(p_args, 'id'),
                                                             private.sync_bool(p_args, 'accept'),
                                                             private.sync_uuid(p_args, 'event_id'));
  end case;
end
$$;
revoke all on function private.sync_apply(p_name text, p_args jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_apply(p_name text, p_args jsonb) to authenticated, service_role;

create or replace function private.sync_apply_directory(p_name text, p_args jsonb) returns void
language plpgsql
set search_path = ''
as $$
declare
  v_id uuid := private.sync_uuid(p_args, 'id');
  v_public boolean;
  v_password text := private.sync_text(p_args, 'password');
begin
  if p_args ? 'is_public' then
    v_public := private.sync_bool(p_args, 'is_public');
  end if;
  case p_name
    when 'directory.create' then
      insert into public.link_directories (id, name, description, color, is_public, owner_id)
      values (v_id, private.sync_text(p_args, 'name'), private.sync_text(p_args, 'description'),
              private.sync_text(p_args, 'color'), coalesce(v_public, false), auth.uid());
      -- A password needs a public directory: is_public false (or absent, so private) ignores it.
      if coalesce(v_public, false) and coalesce(v_password, '') <> '' then
        perform private.set_directory_password(v_id, v_password);
      end if;
    when 'directory.update' then
      update public.link_directories d set
        name = case when p_args ? 'name' then private.sync_text(p_args, 'name') else d.name end,
        description = case when p_args ? 'description' then private.sync_text(p_args, 'description')
                           else d.description end,
        color = case when p_args ? 'color' then private.sync_text(p_args, 'color') else d.color end,
        is_public = coalesce(v_public, d.is_public)
      where d.id = v_id and d.deleted_at is null;
      if not found then
        perform private.sync_missing('link_directories', v_id);
      end if;
      -- is_public false clears the password (the rule trigger does it); null or '' clears it too.
      if p_args ? 'password' and v_public is distinct from false then
        perform private.set_directory_password(v_id, v_password);
      end if;
    when 'directory.delete' then
      update public.link_directories d set deleted_at = now() where d.id = v_id and d.deleted_at is null;
      if not found then
        perform private.sync_missing('link_directories', v_id, true);
      end if;
  end case;
end
$$;
revoke all on function private.sync_apply_directory(p_name text, p_args jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_apply_directory(p_name text, p_args jsonb) to authenticated, service_role;

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

create or replace function private.sync_apply_link(p_name text, p_args jsonb) returns void
language plpgsql
set search_path = ''
as $$
declare
  v_id uuid := private.sync_uuid(p_args, 'id');
begin
  case p_name
    when 'link.create' then
      perform private.sync_insert_allowed(private.sync_uuid(p_args, 'directory_id'), false);
      -- created_at: an imported bookmark's ADD_DATE; row_meta checks its range, absent means now.
      insert into public.saved_links (id, directory_id, url, title, notes, description, tags, is_favorite,
                                      created_at)
      values (v_id, private.sync_uuid(p_args, 'directory_id'), private.sync_text(p_args, 'url'),
              private.sync_text(p_args, 'title'), private.sync_text(p_args, 'notes'),
              private.sync_text(p_args, 'description'), private.sync_text_array(p_args -> 'tags'),
              case when p_args ? 'is_favorite' then private.sync_bool(p_args, 'is_favorite') else false end,
              coalesce(private.sync_created_at(p_args), now()));
      return;
    when 'link.update' then
      update public.saved_links l set
        url = case when p_args ? 'url' then private.sync_text(p_args, 'url') else l.url end,
        title = case when p_args ? 'title' then private.sync_text(p_args, 'title') else l.title end,
        notes = case when p_args ? 'notes' then private.sync_text(p_args, 'notes') else l.notes end,
        description = case when p_args ? 'description' then private.sync_text(p_args, 'description')
                           else l.description end,
        tags = case when p_args ? 'tags' then private.sync_text_array(p_args -> 'tags') else l.tags end
      where l.id = v_id and l.deleted_at is null;
    when 'link.set_favorite' then
      update public.saved_links l set is_favorite = private.sync_bool(p_args, 'value')
      where l.id = v_id and l.deleted_at is null;
    when 'link.delete' then
      update public.saved_links l set deleted_at = now() where l.id = v_id and l.deleted_at is null;
  end case;
  if not found then
    perform private.sync_missing('saved_links', v_id, p_name = 'link.delete');
  end if;
end
$$;
revoke all on function private.sync_apply_link(p_name text, p_args jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_apply_link(p_name text, p_args jsonb) to authenticated, service_role;

create or replace function private.sync_apply_member(p_name text, p_args jsonb) returns void
language plpgsql
set search_path = ''
as $$
declare
  v_id uuid := private.sync_uuid(p_args, 'id');
begin
  case p_name
    when 'member.invite' then
      perform private.sync_insert_allowed(private.sync_uuid(p_args, 'directory_id'), true);
      insert into public.directory_members (id, directory_id, user_email, role)
      values (v_id, private.sync_uuid(p_args, 'directory_id'), private.sync_text(p_args, 'user_email'),
              coalesce(private.sync_text(p_args, 'role'), 'viewer'));
      -- Its mail is queued by the insert's trigger (mail.sql), in this savepoint.
      return;
    when 'member.set_role' then
      update public.directory_members m set role = private.sync_text(p_args, 'role')
      where m.id = v_id and m.deleted_at is null;
    when 'member.remove' then
      update public.directory_members m set deleted_at = now() where m.id = v_id and m.deleted_at is null;
  end case;
  if not found then
    perform private.sync_missing('directory_members', v_id, p_name = 'member.remove');
  end if;
end
$$;
revoke all on function private.sync_apply_member(p_name text, p_args jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_apply_member(p_name text, p_args jsonb) to authenticated, service_role;

create or replace function private.sync_apply_poll(p_name text, p_args jsonb) returns void
language plpgsql
set search_path = ''
as $$
declare
  v_id uuid := private.sync_uuid(p_args, 'id');
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
      if exists (select 1 from jsonb_array_elements_text(p_args -> 'options') o where char_length(btrim(o)) > 500) then
        raise exception 'A voting option can be at most 500 characters.' using errcode = '22023', hint = 'invalid';
      end if;
      select jsonb_agg(jsonb_build_object('text', btrim(o #>> '{}'), 'votes', 0) order by n) into v_options
      from jsonb_array_elements(p_args -> 'options') with ordinality x(o, n);
      insert into public.voting_posts (id, title, description, options, deadline, directory_id, created_by_id)
      values (v_id, private.sync_text(p_args, 'title'), private.sync_text(p_args, 'description'), v_options,
              private.sync_time(p_args, 'deadline'), private.sync_opt_uuid(p_args, 'directory_id'), auth.uid());
    when 'poll.vote' then
      if jsonb_typeof(p_args -> 'option_index') is distinct from 'number' then
        raise exception 'Invalid option.' using errcode = '22023', hint = 'invalid';
      end if;
      insert into public.user_votes (id, post_id, option_index, user_id, user_email)
      values (v_id, private.sync_uuid(p_args, 'post_id'), (p_args ->> 'option_index')::int, auth.uid(),
              lower(auth.email()));
    when 'poll.create_time' then
      -- A 'Find a time' poll (docs/product.md, Find a time): its slots are its options; the rules
      -- (private.time_poll_slots) check them and write each slot's label and counts.
      if jsonb_typeof(p_args -> 'slots') is distinct from 'array' then
        raise exception 'Please provide at least 2 time slots' using errcode = '22023', hint = 'invalid';
      end if;
      insert into public.voting_posts (id, title, description, options, deadline, directory_id, created_by_id,
                                       kind, time_zone)
      values (v_id, private.sync_text(p_args, 'title'), private.sync_text(p_args, 'description'), p_args -> 'slots',
              private.sync_time(p_args, 'deadline'), private.sync_opt_uuid(p_args, 'directory_id'), auth.uid(),
              'time', private.sync_text(p_args, 'time_zone'));
    when 'poll.answer' then
      -- One row per poll and voter: a replay, or the voter's other device with another row id, writes
      -- the slot into the row already there (its id stays). The rules check the answer; the count
      -- follows from all rows (slot_answers_count).
      if jsonb_typeof(p_args -> 'answer') is distinct from 'string' then
        raise exception 'Invalid option.' using errcode = '22023', hint = 'invalid';
      end if;
      insert into public.slot_answers as a (id, post_id, user_id, answers)
      values (v_id, private.sync_uuid(p_args, 'post_id'), auth.uid(),
              jsonb_build_object(private.sync_uuid(p_args, 'slot_id')::text, p_args ->> 'answer'))
      on conflict (post_id, user_id) do update set answers = a.answers || excluded.answers;
    when 'poll.remove_slot' then
      perform private.poll_remove_slot(v_id, private.sync_uuid(p_args, 'slot_id')::text);
    when 'poll.pick' then
      perform private.poll_pick(v_id, private.sync_uuid(p_args, 'slot_id')::text, private.sync_uuid(p_args, 'event_id'));
  end case;
end
$$;
revoke all on function private.sync_apply_poll(p_name text, p_args jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_apply_poll(p_name text, p_args jsonb) to authenticated, service_role;

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
                                    else p.default_reminder_minutes end,
    theme = case when p_args ? 'theme' then private.sync_theme(p_args) else p.theme end
  where p.id = auth.uid();
  if not found then
    raise exception 'Not authenticated' using errcode = '42501';
  end if;
end
$$;
revoke all on function private.sync_apply_profile(p_name text, p_args jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_apply_profile(p_name text, p_args jsonb) to authenticated, service_role;

create or replace function private.sync_apply_series(p_name text, p_args jsonb) returns void
language plpgsql
set search_path = ''
as $$
declare
  v_old uuid;
begin
  case p_name
    when 'series.create' then
      perform private.sync_insert_series(p_args);
    when 'series.replace' then
      -- One mutation, one savepoint: the old set goes and the new set comes, or neither.
      v_old := private.sync_uuid(p_args, 'old_series_id');
      if not exists (select 1 from public.calendar_events e where e.series_id = v_old) then
        raise exception 'Not found.' using errcode = 'P0002';
      end if;
      update public.calendar_events e set deleted_at = now() where e.series_id = v_old and e.deleted_at is null;
      -- The replacement is a new series: its insert's trigger queues its own mail (mail.sql).
      perform private.sync_insert_series(p_args);
    when 'series.delete' then
      v_old := private.sync_uuid(p_args, 'series_id');
      update public.calendar_events e set deleted_at = now() where e.series_id = v_old and e.deleted_at is null;
      if not found and not exists (select 1 from public.calendar_events e where e.series_id = v_old) then
        raise exception 'Not found.' using errcode = 'P0002';
      end if;
  end case;
end
$$;
revoke all on function private.sync_apply_series(p_name text, p_args jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_apply_series(p_name text, p_args jsonb) to authenticated, service_role;

-- A non-owner's insert into a shared directory is forbidden before the owner's plan limits are
-- checked (the rule triggers run before an INSERT's RLS check). Definer: it looks at the
-- directory whatever the caller may see, and answers only forbidden or nothing.
create or replace function private.sync_insert_allowed(p_directory uuid, p_owner_only boolean) returns void
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.link_directories d where d.id = p_directory and d.deleted_at is null)
     and not (case when p_owner_only then private.is_directory_owner(p_directory)
                   else private.can_edit_directory(p_directory) end) then
    raise exception 'You do not have permission to change this.' using errcode = '42501';
  end if;
end
$$;
revoke all on function private.sync_insert_allowed(p_directory uuid, p_owner_only boolean) from public, anon, authenticated, service_role;
grant execute on function private.sync_insert_allowed(p_directory uuid, p_owner_only boolean) to authenticated, service_role;

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
