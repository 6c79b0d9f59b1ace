-- Rules of 'Find a time' polls: the slots checked and labelled, one answers row per voter, the counts recounted from the answers.
--
-- The current definitions (docs/architecture.md, "Rules written once"): edit here, then run
-- `npm run db:diff` to write the migration. Tables, columns and data changes stay in migrations.

-- A time poll's slots (docs/product.md, Find a time), checked and rebuilt: 2 to 30 on a new poll (1 to
-- 30 once slots are removed), each {id, start, minutes} (an instant and 15 to 1,440 minutes) or
-- {id, day} (a whole day, 'YYYY-MM-DD', in the creator's zone), with its label `text` in that zone
-- ('2026-12-03 10:00 (60 min)', '2026-12-03') and its counts: 0 on a new poll, else kept (only the
-- answers' recount, slot_answers_count, writes them; votes is the Yes count). The zone must be real.
create or replace function private.time_poll_slots(p_options jsonb, p_zone text, p_new boolean) returns jsonb
language plpgsql stable
set search_path = ''
as $$
declare
  slot jsonb;
  v_start timestamptz;
  v_day date;
  v_minutes integer;
  v_text text;
  v_ids text[] := '{}';
  cleaned jsonb := '[]';
begin
  -- The zone is checked once, on a new poll (no client changes it later: row_meta).
  if p_zone is null
     or (p_new and not exists (select 1 from pg_catalog.pg_timezone_names t where t.name = p_zone)) then
    raise exception 'Unknown time zone.' using errcode = '22023', hint = 'invalid';
  end if;
  if jsonb_typeof(p_options) is distinct from 'array' or jsonb_array_length(p_options) < 1
     or (p_new and jsonb_array_length(p_options) < 2) then
    if p_new then
      raise exception 'Please provide at least 2 time slots' using errcode = '22023', hint = 'invalid';
    end if;
    raise exception 'A poll needs at least one time slot.' using errcode = '22023', hint = 'invalid';
  end if;
  if jsonb_array_length(p_options) > 30 then
    raise exception 'A poll can have at most 30 time slots.' using errcode = '22023', hint = 'invalid';
  end if;
  for slot in select value from jsonb_array_elements(p_options) loop
    v_start := null;
    v_day := null;
    v_minutes := null;
    if jsonb_typeof(slot) <> 'object' or jsonb_typeof(slot -> 'id') is distinct from 'string'
       or (slot ->> 'id') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
       or lower(slot ->> 'id') = any (v_ids) then
      raise exception 'A time slot must start at a valid time and last from 15 minutes to 24 hours.'
        using errcode = '22023', hint = 'invalid';
    end if;
    v_ids := array_append(v_ids, lower(slot ->> 'id'));
    if jsonb_typeof(slot -> 'day') = 'string' and coalesce(jsonb_typeof(slot -> 'start'), 'null') = 'null'
       and (slot ->> 'day') ~ '^\d{4}-\d{2}-\d{2}$' then
      begin
        v_day := (slot ->> 'day')::date;
      exception when others then
        v_day := null;
      end;
    elsif jsonb_typeof(slot -> 'start') = 'string' and coalesce(jsonb_typeof(slot -> 'day'), 'null') = 'null'
          and jsonb_typeof(slot -> 'minutes') = 'number' and (slot ->> 'minutes') ~ '^\d{1,4}$'
          and (slot ->> 'start') ~ '^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)$' then
      v_minutes := (slot ->> 'minutes')::integer;
      begin
        v_start := (slot ->> 'start')::timestamptz;
      exception when others then
        v_start := null;
      end;
    end if;
    if v_day is null and (v_start is null or v_minutes not between 15 and 1440) then
      raise exception 'A time slot must start at a valid time and last from 15 minutes to 24 hours.'
        using errcode = '22023', hint = 'invalid';
    end if;
    v_text := case when v_day is not null then to_char(v_day, 'YYYY-MM-DD')
                   else to_char(v_start at time zone p_zone, 'YYYY-MM-DD HH24:MI') || ' (' || v_minutes || ' min)' end;
    cleaned := cleaned || jsonb_build_array(jsonb_strip_nulls(jsonb_build_object(
      'id', lower(slot ->> 'id'),
      'start', to_char(v_start at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'minutes', v_minutes,
      'day', to_char(v_day, 'YYYY-MM-DD'),
      'text', v_text,
      'votes', case when p_new then 0 else coalesce((slot ->> 'yes')::int, 0) end,
      'yes', case when p_new then 0 else coalesce((slot ->> 'yes')::int, 0) end,
      'maybe', case when p_new then 0 else coalesce((slot ->> 'maybe')::int, 0) end)));
  end loop;
  return cleaned;
end
$$;
revoke all on function private.time_poll_slots(p_options jsonb, p_zone text, p_new boolean) from public, anon, authenticated, service_role;
grant execute on function private.time_poll_slots(p_options jsonb, p_zone text, p_new boolean) to service_role;

-- A time poll's answers (docs/product.md, Find a time): one row per poll and voter, the caller's
-- own (user_id), named by username, else full name (voter_name; never an address), in the poll's
-- directory (directory_id: its people see the grid). Refused as a vote is: a poll the caller cannot
-- reach ('You do not have access to this poll.', a team poll's outsider, before anything else), a
-- deleted one, a closed one (the deadline by the server's clock, closed, or picked), and an answer
-- naming a slot the poll no longer has. Definer, as user_votes_rules: it reads the poll and the
-- directory whatever the caller sees. poll.remove_slot strips a slot's answers from every row
-- (private.poll_remove_slot names it in linkboard.strip_slot for that one statement).
create or replace function public.slot_answers_rules() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  post record;
  v_email text;
begin
  if tg_op = 'INSERT' then
    new.user_id := coalesce(auth.uid(), new.user_id);
  end if;
  select v.kind, v.is_active, v.deadline, v.deleted_at, v.options, v.directory_id, v.picked_slot_id into post
  from public.voting_posts v where v.id = new.post_id;
  if tg_op = 'UPDATE' and old.deleted_at is null and new.deleted_at is not null then
    -- Tombstoned with its poll (a directory's deletion), never on its own.
    if not found or post.deleted_at is not null then
      return new;
    end if;
    raise exception 'This record cannot be changed.' using errcode = '42501', hint = 'forbidden';
  end if;
  if not found then
    raise exception 'Poll not found.' using errcode = 'P0002', hint = 'not_found';
  end if;
  new.directory_id := post.directory_id;
  select coalesce(nullif(p.username, ''), nullif(btrim(p.full_name), '')) into new.voter_name
  from public.user_profiles p where p.id = new.user_id;
  if tg_op = 'UPDATE' and new.answers is not distinct from old.answers and new.deleted_at is not distinct from old.deleted_at then
    -- The voter's name again (a username change): the answers are as they were.
    return new;
  end if;
  if post.directory_id is not null then
    v_email := private.confirmed_email_of(new.user_id);
    if not exists (select 1 from public.link_directories d
                   where d.id = post.directory_id and d.owner_id = new.user_id)
       and not exists (select 1 from public.directory_members m
                       where m.directory_id = post.directory_id and m.deleted_at is null
                         and m.user_email = v_email) then
      raise exception 'You do not have access to this poll.' using errcode = '42501', hint = 'forbidden';
    end if;
  end if;
  if post.deleted_at is not null then
    raise exception 'Poll not found.' using errcode = 'P0002', hint = 'not_found';
  end if;
  if post.kind is distinct from 'time' then
    raise exception 'This poll has no time slots.' using errcode = '22023', hint = 'invalid';
  end if;
  if tg_op = 'UPDATE' and new.answers = old.answers - current_setting('linkboard.strip_slot', true)
     and coalesce(current_setting('linkboard.strip_slot', true), '') <> '' then
    -- poll.remove_slot takes the slot's answers away (the creator's rule, checked there).
    return new;
  end if;
  -- The poll's row lock, as the recount takes it: answers to one poll go one after the other, and
  -- an answer that waited for a pick sees the poll closed (the latest row, once the lock is had).
  select v.kind, v.is_active, v.deadline, v.deleted_at, v.options, v.directory_id, v.picked_slot_id into post
  from public.voting_posts v where v.id = new.post_id for no key update;
  if not post.is_active or post.picked_slot_id is not null
     or (post.deadline is not null and post.deadline <= now()) then
    raise exception 'This poll is closed.' using errcode = 'P0001', hint = 'poll_closed';
  end if;
  if jsonb_typeof(new.answers) is distinct from 'object' then
    raise exception 'Invalid option.' using errcode = '22023', hint = 'invalid';
  end if;
  if exists (select 1 from jsonb_object_keys(new.answers) k
             where not exists (select 1 from jsonb_array_elements(post.options) o where o ->> 'id' = k)) then
    raise exception 'This time slot no longer exists.' using errcode = 'P0002', hint = 'not_found';
  end if;
  if exists (select 1 from jsonb_each(new.answers) a
             where jsonb_typeof(a.value) <> 'string' or (a.value #>> '{}') not in ('yes', 'maybe', 'no')) then
    raise exception 'Invalid option.' using errcode = '22023', hint = 'invalid';
  end if;
  return new;
end
$$;
revoke all on function public.slot_answers_rules() from public, anon, authenticated, service_role;
grant execute on function public.slot_answers_rules() to service_role;

-- Counts a time poll's answers: each slot's yes and maybe (votes = yes) recounted from all its live
-- answer rows, so a replay or a second device's row changes nothing. The poll's row lock is taken
-- first, in its own statement: the recount that follows then sees every answer committed before it
-- (a concurrent answer waits for the lock, then recounts with this one in).
create or replace function public.slot_answers_count() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  perform private.time_poll_recount(new.post_id);
  return null;
end
$$;
revoke all on function public.slot_answers_count() from public, anon, authenticated, service_role;
grant execute on function public.slot_answers_count() to service_role;

create or replace function private.time_poll_recount(p_post uuid) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  perform 1 from public.voting_posts v where v.id = p_post and v.kind = 'time' for no key update;
  if not found then
    return;
  end if;
  update public.voting_posts v
  set options = (
    select coalesce(jsonb_agg(o.slot || jsonb_build_object('votes', c.yes, 'yes', c.yes, 'maybe', c.maybe)
                              order by o.n), '[]')
    from jsonb_array_elements(v.options) with ordinality o(slot, n)
    cross join lateral (
      select count(*) filter (where a.answers ->> (o.slot ->> 'id') = 'yes')::int as yes,
             count(*) filter (where a.answers ->> (o.slot ->> 'id') = 'maybe')::int as maybe
      from public.slot_answers a where a.post_id = p_post and a.deleted_at is null
    ) c)
  where v.id = p_post;
end
$$;
revoke all on function private.time_poll_recount(p_post uuid) from public, anon, authenticated, service_role;
grant execute on function private.time_poll_recount(p_post uuid) to service_role;
