-- Sync apply: the dispatcher and one function per mutation family, run as the caller (RLS and rule
-- triggers apply). The calendar's families (events, tasks, occurrences, series) are in
-- sync_apply_calendar.sql.
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
