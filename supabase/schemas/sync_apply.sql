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

-- A time poll as its creator acts on it (poll.remove_slot, poll.pick), locked: 'Poll not found.'
-- when the caller cannot see it (a team poll of a directory they left) or it is deleted, the
-- creator's refusal when the caller is someone else, and a choice poll is no time poll.
create or replace function private.time_poll_of_creator(p_post uuid, p_refusal text)
returns public.voting_posts
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  post public.voting_posts;
begin
  select * into post from public.voting_posts v where v.id = p_post for update;
  if not found or post.deleted_at is not null
     or (post.directory_id is not null and not private.can_view_directory(post.directory_id)) then
    raise exception 'Poll not found.' using errcode = 'P0002', hint = 'not_found';
  end if;
  if post.created_by_id is distinct from auth.uid() then
    raise exception '%', p_refusal using errcode = '42501', hint = 'forbidden';
  end if;
  if post.kind is distinct from 'time' then
    raise exception 'This poll has no time slots.' using errcode = '22023', hint = 'invalid';
  end if;
  return post;
end
$$;
revoke all on function private.time_poll_of_creator(p_post uuid, p_refusal text) from public, anon, authenticated, service_role;
grant execute on function private.time_poll_of_creator(p_post uuid, p_refusal text) to service_role;

-- poll.remove_slot: the creator takes a slot off a time poll with every answer to it, while another
-- stays and until the pick. Definer: the slots and the other voters' answers are the server's to
-- change (voting_posts_guard_votes, slot_answers RLS); it acts only on the caller's own poll.
create or replace function private.poll_remove_slot(p_post uuid, p_slot text) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  post public.voting_posts := private.time_poll_of_creator(p_post, 'Only the creator of this poll can remove a slot.');
  v_slot text := lower(p_slot);
begin
  if post.picked_slot_id is not null then
    raise exception 'This poll is closed.' using errcode = 'P0001', hint = 'poll_closed';
  end if;
  if not exists (select 1 from jsonb_array_elements(post.options) o where o ->> 'id' = v_slot) then
    raise exception 'This time slot no longer exists.' using errcode = 'P0002', hint = 'not_found';
  end if;
  if jsonb_array_length(post.options) <= 1 then
    raise exception 'A poll needs at least one time slot.' using errcode = '22023', hint = 'invalid';
  end if;
  update public.voting_posts v
  set options = (select jsonb_agg(o order by n) from jsonb_array_elements(v.options) with ordinality x(o, n)
                 where o ->> 'id' <> v_slot)
  where v.id = p_post;
  -- slot_answers_rules lets exactly this change through, for this statement only.
  perform set_config('linkboard.strip_slot', v_slot, true);
  update public.slot_answers a set answers = a.answers - v_slot where a.post_id = p_post and a.answers ? v_slot;
  perform set_config('linkboard.strip_slot', '', true);
  perform private.time_poll_recount(p_post);
end
$$;
revoke all on function private.poll_remove_slot(p_post uuid, p_slot text) from public, anon, authenticated, service_role;
grant execute on function private.poll_remove_slot(p_post uuid, p_slot text) to authenticated, service_role;

-- A slot's times: a start and its minutes, or a whole day from its midnight in the poll's zone to
-- the next (an all-day event, docs/architecture.md, Calendar).
create or replace function private.time_slot_times(p_slot jsonb, p_zone text,
                                                   out starts_at timestamptz, out ends_at timestamptz,
                                                   out all_day boolean)
language plpgsql stable
set search_path = ''
as $$
begin
  if p_slot ? 'day' then
    starts_at := ((p_slot ->> 'day')::date)::timestamp at time zone p_zone;
    ends_at := ((p_slot ->> 'day')::date + 1)::timestamp at time zone p_zone;
    all_day := true;
  else
    starts_at := (p_slot ->> 'start')::timestamptz;
    ends_at := starts_at + make_interval(mins => (p_slot ->> 'minutes')::integer);
    all_day := false;
  end if;
end
$$;
revoke all on function private.time_slot_times(p_slot jsonb, p_zone text, out starts_at timestamptz, out ends_at timestamptz, out all_day boolean) from public, anon, authenticated, service_role;
grant execute on function private.time_slot_times(p_slot jsonb, p_zone text, out starts_at timestamptz, out ends_at timestamptz, out all_day boolean) to service_role;

-- poll.pick (docs/product.md, Find a time): the creator picks a slot. At most 10 picks an hour per
-- poll. The creator's event (p_event the first time) is made from the slot, or the poll's earlier
-- event moves to it (made again if the creator deleted it); the poll closes, names the slot and
-- event, and counts the pick (the .ics SEQUENCE). Every other voter who answered Yes or If need be
-- to the slot is offered it (an invitation, pending); existing invitations get the new times, and
-- an accepted one's event moves with them. Then the mail (private.queue_pick_mail). Definer: the
-- poll's pick columns, other users' invitations and accepted events are the server's to write;
-- it acts only for the poll's creator, who is the caller.
create or replace function private.poll_pick(p_post uuid, p_slot text, p_event uuid) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  post public.voting_posts := private.time_poll_of_creator(p_post, 'Only the creator of this poll can pick the time.');
  uid uuid := auth.uid();
  v_slot jsonb;
  t record;
  v_event uuid;
  v_inviter text;
begin
  select o into v_slot from jsonb_array_elements(post.options) o where o ->> 'id' = lower(p_slot);
  if v_slot is null then
    raise exception 'This time slot no longer exists.' using errcode = 'P0002', hint = 'not_found';
  end if;
  if private.throttle_wait('poll_pick', p_post::text, 10, interval '1 hour') > 0 then
    raise exception 'Too many requests. Please try again later.' using errcode = 'P0001', hint = 'limit_reached';
  end if;
  perform private.throttle_record('poll_pick', p_post::text);
  t := private.time_slot_times(v_slot, post.time_zone);

  -- The creator's event: the earlier pick's moves (a deleted one is made again), else p_event.
  if post.picked_event_id is not null then
    update public.calendar_events e
    set starts_at = t.starts_at, ends_at = t.ends_at, all_day = t.all_day, deleted_at = null
    where e.id = post.picked_event_id and e.owner_id = uid
      and (e.deleted_at is null or p_event = post.picked_event_id
           or exists (select 1 from public.calendar_events x where x.id = p_event));
    if found then
      v_event := post.picked_event_id;
    end if;
  end if;
  if v_event is null then
    insert into public.calendar_events (id, title, description, starts_at, ends_at, all_day, is_task, owner_id)
    values (p_event, post.title, post.description, t.starts_at, t.ends_at, t.all_day, false, uid);
    v_event := p_event;
  end if;

  update public.voting_posts v
  set picked_slot_id = v_slot ->> 'id', picked_event_id = v_event, pick_count = v.pick_count + 1, is_active = false
  where v.id = p_post;

  select p.username into v_inviter from public.user_profiles p where p.id = uid;
  -- Every invitation already made follows the slot; an accepted one's event moves with it.
  update public.event_invitations i
  set starts_at = t.starts_at, ends_at = t.ends_at, all_day = t.all_day, title = post.title,
      description = post.description, inviter_name = v_inviter
  where i.post_id = p_post and i.deleted_at is null;
  update public.calendar_events e
  set starts_at = t.starts_at, ends_at = t.ends_at, all_day = t.all_day
  from public.event_invitations i
  where i.post_id = p_post and i.status = 'accepted' and i.deleted_at is null
    and e.id = i.event_id and e.owner_id = i.user_id and e.deleted_at is null;
  -- The slot's Yes and If need be voters are offered it (again, for one who had declined another time).
  insert into public.event_invitations as i (post_id, user_id, inviter_name, title, description, starts_at,
                                             ends_at, all_day)
  select p_post, a.user_id, v_inviter, post.title, post.description, t.starts_at, t.ends_at, t.all_day
  from public.slot_answers a
  where a.post_id = p_post and a.deleted_at is null and a.user_id <> uid
    and a.answers ->> (v_slot ->> 'id') in ('yes', 'maybe')
  on conflict (post_id, user_id) do update
    set status = case when i.status = 'declined' then 'pending' else i.status end, deleted_at = null;

  perform private.queue_pick_mail(p_post);
end
$$;
revoke all on function private.poll_pick(p_post uuid, p_slot text, p_event uuid) from public, anon, authenticated, service_role;
grant execute on function private.poll_pick(p_post uuid, p_slot text, p_event uuid) to authenticated, service_role;

-- invitation.answer (docs/product.md, Find a time): the invitee accepts (their own event p_event,
-- with the invitation's times) or declines (the accepted event, if any, is deleted). Accepting an
-- accepted invitation (a replay, the other device) changes nothing: never a second event. Definer:
-- invitations have no client write policy; it acts only on the caller's own invitation.
create or replace function private.invitation_answer(p_id uuid, p_accept boolean, p_event uuid) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  inv public.event_invitations;
  uid uuid := auth.uid();
begin
  select * into inv from public.event_invitations i where i.id = p_id and i.user_id = uid for update;
  if not found or inv.deleted_at is not null then
    raise exception 'This invitation is no longer available.' using errcode = 'P0002', hint = 'not_found';
  end if;
  if p_accept then
    if inv.status = 'accepted' then
      return;
    end if;
    -- The same id accepted again after a decline is the event made again.
    update public.calendar_events e
    set title = inv.title, description = inv.description, starts_at = inv.starts_at, ends_at = inv.ends_at,
        all_day = inv.all_day, deleted_at = null
    where e.id = p_event and e.owner_id = uid and e.deleted_at is not null;
    if not found then
      insert into public.calendar_events (id, title, description, starts_at, ends_at, all_day, is_task, owner_id)
      values (p_event, inv.title, inv.description, inv.starts_at, inv.ends_at, inv.all_day, false, uid);
    end if;
    update public.event_invitations i set status = 'accepted', event_id = p_event where i.id = p_id;
  else
    if inv.event_id is not null then
      update public.calendar_events e set deleted_at = now()
      where e.id = inv.event_id and e.owner_id = uid and e.deleted_at is null;
    end if;
    update public.event_invitations i set status = 'declined', event_id = null
    where i.id = p_id and (i.status <> 'declined' or i.event_id is not null);
  end if;
end
$$;
revoke all on function private.invitation_answer(p_id uuid, p_accept boolean, p_event uuid) from public, anon, authenticated, service_role;
grant execute on function private.invitation_answer(p_id uuid, p_accept boolean, p_event uuid) to authenticated, service_role;
