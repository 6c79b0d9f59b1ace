-- sync_push's internals in schema private (see
-- ..._sync_private_helpers.sql), with strict argument readers, and sync_push's envelope checked
-- before anything is applied:
--   - p_mutations must be an array (22023, HTTP 400);
--   - more than 500 mutations are refused whole with 413 (SQLSTATE PT413: PostgREST answers
--     PTxyz with status xyz), never with 54000 and a 500;
--   - a malformed mutation (wrong types, missing fields, an unknown name) is rejected `invalid`
--     on its own, in its own savepoint, so nothing of it is written.
-- The families run as the caller, so RLS and the rule triggers apply, as before
-- (..._sync_apply_links.sql, ..._sync_apply_events.sql, ..._sync_insert_permission_first.sql).

-- A non-owner's insert into a shared directory is forbidden before the owner's plan limits are
-- checked (the rule triggers run before an INSERT's RLS check). Definer: it looks at the
-- directory whatever the caller may see, and answers only forbidden or nothing.
create or replace function private.sync_insert_allowed(p_directory uuid, p_owner_only boolean) returns void
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.link_directories d where d.id = p_directory and d.deleted_at is null)
     and not (case when p_owner_only then public.is_directory_owner(p_directory)
                   else public.can_edit_directory(p_directory) end) then
    raise exception 'You do not have permission to change this.' using errcode = '42501';
  end if;
end
$$;

create or replace function private.sync_apply_profile(p_name text, p_args jsonb) returns void
language plpgsql
set search_path = ''
as $$
begin
  update public.user_profiles p set
    username = case when p_args ? 'username' then private.sync_text(p_args, 'username') else p.username end,
    bio = case when p_args ? 'bio' then private.sync_text(p_args, 'bio') else p.bio end,
    full_name = case when p_args ? 'full_name' then private.sync_text(p_args, 'full_name') else p.full_name end,
    time_zone = case when p_args ? 'time_zone' then private.sync_text(p_args, 'time_zone') else p.time_zone end
  where p.id = auth.uid();
  if not found then
    raise exception 'Not authenticated' using errcode = '42501';
  end if;
end
$$;

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
        perform public.set_directory_password(v_id, v_password);
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
        perform public.set_directory_password(v_id, v_password);
      end if;
    when 'directory.delete' then
      update public.link_directories d set deleted_at = now() where d.id = v_id and d.deleted_at is null;
      if not found then
        perform private.sync_missing('link_directories', v_id, true);
      end if;
  end case;
end
$$;

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
      insert into public.saved_links (id, directory_id, url, title, notes, description, tags, is_favorite)
      values (v_id, private.sync_uuid(p_args, 'directory_id'), private.sync_text(p_args, 'url'),
              private.sync_text(p_args, 'title'), private.sync_text(p_args, 'notes'),
              private.sync_text(p_args, 'description'), private.sync_text_array(p_args -> 'tags'),
              case when p_args ? 'is_favorite' then private.sync_bool(p_args, 'is_favorite') else false end);
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
      return;
    when 'event.update', 'occurrence.detach' then
      update public.calendar_events e set
        title = case when p_args ? 'title' then private.sync_text(p_args, 'title') else e.title end,
        description = case when p_args ? 'description' then private.sync_text(p_args, 'description')
                           else e.description end,
        starts_at = case when p_args ? 'starts_at' then private.sync_time(p_args, 'starts_at') else e.starts_at end,
        ends_at = case when p_args ? 'ends_at' then private.sync_time(p_args, 'ends_at') else e.ends_at end,
        priority = case when p_args ? 'priority' and p_name = 'event.update' then private.sync_text(p_args, 'priority')
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

-- Inserts one series' occurrences: 1..1,000 objects {id, title, description?, starts_at?, ends_at?},
-- each with the series id, rule and end date.
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
                                      series_id, recurrence_rule, recurrence_end_date)
  select o.id, o.title, o.description, o.starts_at, o.ends_at, v_is_task, auth.uid(), v_series, v_rule, v_until
  from jsonb_to_recordset(p_args -> 'occurrences')
         as o(id uuid, title text, description text, starts_at timestamptz, ends_at timestamptz);
end
$$;

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
  end case;
end
$$;

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
  end case;
end
$$;

-- One mutation's answer: the recorded one on a replay, else applied or rejected (and recorded).
create or replace function private.sync_push_one(p_id uuid, p_name text, p_args jsonb) returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  answer jsonb := private.sync_recorded_answer(p_id);
  touched jsonb;
  v_state text;
  v_message text;
  v_hint text;
  v_table text;
  v_code text;
begin
  if answer is not null then
    return answer;
  end if;

  begin
    touched := private.sync_touched(p_name, p_args);
  exception when others then
    touched := '{}';
  end;

  begin
    if not (p_name = any (private.sync_mutation_names())) then
      raise exception 'Unknown mutation.' using errcode = '22023';
    end if;
    if jsonb_typeof(p_args) is distinct from 'object' then
      raise exception 'The arguments must be an object.' using errcode = '22023';
    end if;
    perform private.sync_apply(p_name, p_args);
    answer := jsonb_build_object('id', p_id, 'status', 'applied') || private.sync_canonical(touched);
    if not private.sync_record_answer(p_id, answer) then
      -- A concurrent push of the same mutation recorded first: undo ours, answer with theirs.
      raise exception 'replayed' using errcode = 'LBS01';
    end if;
    return answer;
  exception when others then
    get stacked diagnostics v_state = returned_sqlstate, v_message = message_text, v_hint = pg_exception_hint,
                            v_table = table_name;
    if v_state = 'LBS01' then
      return private.sync_recorded_answer(p_id);
    end if;
    v_code := private.sync_error_code(v_state, v_hint, v_table);
    if v_code is null then
      raise;
    end if;
  end;

  if v_hint is distinct from v_code or (p_name = 'profile.update' and v_code = 'conflict') then
    -- No wording of the rule's own (a constraint, RLS, a cast): the spec's message for the action.
    v_message := case when v_code = 'already_voted' then 'You have already voted on this poll.'
                      else private.sync_fallback_message(p_name) end;
  end if;
  answer := jsonb_build_object('id', p_id, 'status', 'rejected', 'code', v_code, 'message', left(v_message, 500))
            || private.sync_canonical(touched);
  if not private.sync_record_answer(p_id, answer) then
    answer := private.sync_recorded_answer(p_id);
  end if;
  return answer;
end
$$;

create or replace function public.sync_push(p_mutations jsonb) returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  item jsonb;
  results jsonb := '[]';
  v_id uuid;
begin
  if auth.uid() is null then
    raise exception 'Not authenticated' using errcode = '42501';
  end if;
  if jsonb_typeof(p_mutations) is distinct from 'array' then
    raise exception 'p_mutations must be an array of mutations.' using errcode = '22023';
  end if;
  if jsonb_array_length(p_mutations) > 500 then
    -- Refused whole, before anything is applied: the client sends at most 500 per push.
    raise sqlstate 'PT413' using message = 'Too many changes in one push: at most 500.',
      hint = 'Send the changes in smaller batches.';
  end if;

  perform private.sync_purge_my_answers();

  for item in select value from jsonb_array_elements(p_mutations) loop
    v_id := null;
    if jsonb_typeof(item) = 'object' and jsonb_typeof(item -> 'id') = 'string'
       and (item ->> 'id') ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
      v_id := (item ->> 'id')::uuid;
    end if;
    if v_id is null or jsonb_typeof(item -> 'name') is distinct from 'string' then
      -- Not a mutation at all: answered, but not recorded (there is no id to record it under).
      results := results || jsonb_build_array(jsonb_build_object(
        'id', case when jsonb_typeof(item) = 'object' and jsonb_typeof(item -> 'id') in ('string', 'number')
                     and octet_length(item ->> 'id') <= 100 then item -> 'id' end,
        'status', 'rejected', 'code', 'invalid', 'message', 'Invalid mutation.',
        'rows', '{}'::jsonb, 'deleted', '{}'::jsonb));
      continue;
    end if;
    results := results || jsonb_build_array(
      private.sync_push_one(v_id, item ->> 'name', coalesce(item -> 'args', '{}')));
  end loop;
  return jsonb_build_object('results', results);
end
$$;

revoke all on function private.sync_insert_allowed(uuid, boolean), private.sync_apply_profile(text, jsonb),
  private.sync_apply_directory(text, jsonb), private.sync_apply_link(text, jsonb),
  private.sync_apply_member(text, jsonb), private.sync_apply_event(text, jsonb), private.sync_insert_series(jsonb),
  private.sync_apply_series(text, jsonb), private.sync_apply_poll(text, jsonb), private.sync_apply(text, jsonb),
  private.sync_push_one(uuid, text, jsonb)
  from public, anon, authenticated;
grant execute on function private.sync_insert_allowed(uuid, boolean), private.sync_apply_profile(text, jsonb),
  private.sync_apply_directory(text, jsonb), private.sync_apply_link(text, jsonb),
  private.sync_apply_member(text, jsonb), private.sync_apply_event(text, jsonb), private.sync_insert_series(jsonb),
  private.sync_apply_series(text, jsonb), private.sync_apply_poll(text, jsonb), private.sync_apply(text, jsonb),
  private.sync_push_one(uuid, text, jsonb)
  to authenticated, service_role;
revoke all on function public.sync_push(jsonb) from public, anon;
grant execute on function public.sync_push(jsonb) to authenticated, service_role;
