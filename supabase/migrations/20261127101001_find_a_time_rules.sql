-- Written by `npm run db:diff` from supabase/schemas: function private.sync_apply, function private.sync_apply_poll, function private.sync_canonical, function private.sync_fallback_message, function private.sync_mutation_names, function private.sync_poke_targets, function private.sync_pull_page, function private.sync_synced_tables, function private.sync_touched, function private.user_profiles_poll_creator, function public.link_directories_tombstone, function public.user_votes_rules, function public.voting_posts_guard_votes, function public.voting_posts_rules, trigger public.voting_posts.t10_row_meta, function private.invitation_answer, function private.poll_pick, function private.poll_remove_slot, function private.queue_pick_mail, function private.time_poll_of_creator, function private.time_poll_recount, function private.time_poll_slots, function private.time_slot_times, function public.claim_outgoing_mail, function public.slot_answers_count, function public.slot_answers_rules, trigger public.event_invitations.t10_row_meta, trigger public.slot_answers.t10_row_meta, trigger public.slot_answers.t20_rules, trigger public.slot_answers.t30_count, policy public.event_invitations.event_invitations_select, policy public.slot_answers.slot_answers_insert, policy public.slot_answers.slot_answers_select, policy public.slot_answers.slot_answers_update.
-- Review it, then commit it with the schema change.

-- supabase/schemas/mail.sql
-- The mail of a time poll's pick (docs/product.md, Find a time): 'Time picked: {title}', or 'Time
-- changed: {title}' when picked again, to the creator and every person offered the time (not one who
-- declined), at most 100, each at their confirmed address under calendar_mail_to's cap (a mail over
-- it is dropped; the pick stands). Each row carries the event (calendar), which the sender attaches
-- as invite.ics: the poll's id as its UID, the pick's count as its SEQUENCE, so a calendar that has
-- the earlier time replaces it. Called by private.poll_pick (definer), for the caller's own poll.
create or replace function private.queue_pick_mail(p_post uuid) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  post public.voting_posts;
  v_slot jsonb;
  t record;
  v_site text := coalesce(rtrim(private.setting('site_url'), '/'), '');
  v_url text;
  v_calendar jsonb;
  v_subject text;
  v_user uuid;
  v_to text;
  v_when text;
begin
  select * into post from public.voting_posts v
  where v.id = p_post and v.created_by_id = auth.uid() and v.picked_slot_id is not null;
  if not found then
    return;
  end if;
  select o into v_slot from jsonb_array_elements(post.options) o where o ->> 'id' = post.picked_slot_id;
  t := private.time_slot_times(v_slot, post.time_zone);
  v_url := v_site || '/Voting';
  v_subject := case when post.pick_count > 1 then 'Time changed: ' else 'Time picked: ' end || post.title;
  v_calendar := jsonb_build_object(
    'uid', p_post::text || '@linkboard', 'sequence', post.pick_count, 'title', post.title,
    'description', post.description,
    'starts_at', to_char(t.starts_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'ends_at', to_char(t.ends_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'all_day', t.all_day, 'time_zone', post.time_zone, 'url', v_url, 'method', 'PUBLISH');
  for v_user in
    select r.user_id from (
      select post.created_by_id as user_id, 0 as n, now() as at
      union all
      select i.user_id, 1, i.created_at from public.event_invitations i
      where i.post_id = p_post and i.deleted_at is null and i.status <> 'declined' and i.user_id <> post.created_by_id
    ) r
    order by r.n, r.at, r.user_id
    limit 100
  loop
    v_to := private.calendar_mail_to(v_user);
    continue when v_to is null;
    v_when := case when t.all_day then coalesce(v_slot ->> 'day', '') || ' (all day)'
                   else private.calendar_mail_time(v_user, t.starts_at, true) end;
    insert into public.outgoing_mail (to_address, subject, body, sender_id, calendar)
    values (
      v_to,
      v_subject,
      '"' || post.title || '" is ' || case when post.pick_count > 1 then 'now' else 'set for' end || ' ' || v_when
        || '.' || E'\n'
        || E'\n'
        || case when v_user = post.created_by_id then 'It is in your calendar.'
                else 'Accept or decline the invitation in Linkboard.' end || E'\n'
        || E'\n'
        || 'Open the poll: ' || v_url || E'\n'
        || E'\n'
        || 'The event is attached (invite.ics) to add to any calendar.',
      post.created_by_id,
      v_calendar);
  end loop;
end
$$;
revoke all on function private.queue_pick_mail(p_post uuid) from public, anon, authenticated, service_role;
grant execute on function private.queue_pick_mail(p_post uuid) to service_role;

-- Claims up to p_limit due rows (queued, or sending under a lease that has passed) for
-- p_lease_seconds: each becomes 'sending', its attempts counted. Returns what a sender needs (with
-- the event a pick's mail attaches as invite.ics, calendar).
create or replace function public.claim_outgoing_mail(p_limit integer, p_lease_seconds integer)
returns table (id uuid, to_address text, subject text, body text, attempts integer, calendar jsonb)
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  if p_limit is null or p_limit < 1 or p_limit > 100 then
    raise exception 'p_limit must be a whole number from 1 to 100.' using errcode = '22023', hint = 'invalid';
  end if;
  if p_lease_seconds is null or p_lease_seconds < 1 or p_lease_seconds > 3600 then
    raise exception 'p_lease_seconds must be a whole number from 1 to 3600.' using errcode = '22023', hint = 'invalid';
  end if;
  return query
  with due as (
    select m.id
    from public.outgoing_mail m
    where m.status in ('queued', 'sending') and m.next_attempt_at <= now()
      and (m.locked_until is null or m.locked_until < now())
    order by m.next_attempt_at, m.id
    limit p_limit
    for update skip locked
  )
  update public.outgoing_mail m
  set status = 'sending', attempts = m.attempts + 1, locked_until = now() + make_interval(secs => p_lease_seconds)
  from due
  where m.id = due.id
  returning m.id, m.to_address, m.subject, m.body, m.attempts, m.calendar;
end
$$;
revoke all on function public.claim_outgoing_mail(p_limit integer, p_lease_seconds integer) from public, anon, authenticated, service_role;
grant execute on function public.claim_outgoing_mail(p_limit integer, p_lease_seconds integer) to service_role;

-- supabase/schemas/rls.sql

-- slot_answers (docs/product.md, Find a time): a voter's own row, and a team poll's rows to the
-- directory's people (the grid); written by the voter only (the rules check the poll).
drop policy if exists slot_answers_select on public.slot_answers;
create policy slot_answers_select on public.slot_answers for select to authenticated
  using (user_id = (select auth.uid())
         or (directory_id is not null and directory_id in (select private.viewable_directory_ids())));

drop policy if exists slot_answers_insert on public.slot_answers;
create policy slot_answers_insert on public.slot_answers for insert to authenticated
  with check (user_id = (select auth.uid()));

drop policy if exists slot_answers_update on public.slot_answers;
create policy slot_answers_update on public.slot_answers for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));

-- event_invitations: the invitee's own; only the server's definer functions write them.
drop policy if exists event_invitations_select on public.event_invitations;
create policy event_invitations_select on public.event_invitations for select to authenticated
  using (user_id = (select auth.uid()));

-- supabase/schemas/rules.sql

-- A tombstoned directory tombstones its content, so every synced copy drops it.
create or replace function public.link_directories_tombstone() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  update public.saved_links set deleted_at = new.deleted_at where directory_id = new.id and deleted_at is null;
  update public.directory_members set deleted_at = new.deleted_at where directory_id = new.id and deleted_at is null;
  update public.voting_posts set deleted_at = new.deleted_at where directory_id = new.id and deleted_at is null;
  update public.slot_answers set deleted_at = new.deleted_at where directory_id = new.id and deleted_at is null;
  return null;
end
$$;
revoke all on function public.link_directories_tombstone() from public, anon, authenticated, service_role;
grant execute on function public.link_directories_tombstone() to service_role;

-- A username change reaches the polls the user created: their created_by shows the username
-- (voting_posts_rules sets it), and writing them again gives them a new txid, so every device
-- that holds one pulls the new name. Definer: other users' devices hold the polls, and the
-- poll's own rules run for the update as for any other.
create or replace function private.user_profiles_poll_creator() returns trigger
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  update public.voting_posts v set created_by = new.username
  where v.created_by_id = new.id and v.created_by is distinct from new.username;
  -- The voter's name in time polls' grids (slot_answers_rules sets it from the profile).
  update public.slot_answers a set updated_at = now()
  where a.user_id = new.id
    and a.voter_name is distinct from coalesce(nullif(new.username, ''), nullif(btrim(new.full_name), ''));
  return null;
end
$$;
revoke all on function private.user_profiles_poll_creator() from public, anon, authenticated, service_role;
grant execute on function private.user_profiles_poll_creator() to service_role;

create or replace function public.user_votes_rules() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  post record;
begin
  new.user_id := coalesce(auth.uid(), new.user_id);
  new.user_email := private.confirmed_email_of(new.user_id);
  select v.is_active, v.deadline, v.deleted_at, v.options, v.directory_id, v.kind into post
  from public.voting_posts v where v.id = new.post_id;
  if not found then
    raise exception 'Poll not found.' using errcode = 'P0002', hint = 'not_found';
  end if;
  -- A team poll takes votes only from its directory's owner and live members (a removed member,
  -- its creator among them, no longer). Checked before anything else about the poll, so an
  -- outsider learns nothing of how it stands.
  if post.directory_id is not null
     and not exists (select 1 from public.link_directories d
                     where d.id = post.directory_id and d.owner_id = new.user_id)
     and not exists (select 1 from public.directory_members m
                     where m.directory_id = post.directory_id and m.deleted_at is null
                       and m.user_email = new.user_email) then
    raise exception 'You do not have access to this poll.' using errcode = '42501', hint = 'forbidden';
  end if;
  if post.deleted_at is not null then
    raise exception 'Poll not found.' using errcode = 'P0002', hint = 'not_found';
  end if;
  -- The server's clock decides (now(): the pushing transaction's start); a client sends no time.
  if not post.is_active or (post.deadline is not null and post.deadline <= now()) then
    raise exception 'This poll is closed.' using errcode = 'P0001', hint = 'poll_closed';
  end if;
  if post.kind = 'time' then
    raise exception 'This poll is answered per time slot.' using errcode = '22023', hint = 'invalid';
  end if;
  if new.option_index is null or new.option_index < 0 or new.option_index >= jsonb_array_length(post.options) then
    raise exception 'Invalid option.' using errcode = '22023', hint = 'invalid';
  end if;
  if exists (select 1 from public.user_votes u where u.post_id = new.post_id and u.user_id = new.user_id) then
    raise exception 'You have already voted on this poll.' using errcode = '23505', hint = 'already_voted';
  end if;
  return new;
end
$$;
revoke all on function public.user_votes_rules() from public, anon, authenticated, service_role;
grant execute on function public.user_votes_rules() to service_role;

-- A client may edit a poll's texts but never its counts (a choice's votes, a time slot's yes and
-- maybe) nor a time poll's slots (SECURITY INVOKER: current_user is the API role).
create or replace function public.voting_posts_guard_votes() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user::text in ('anon', 'authenticated') and (
    jsonb_array_length(new.options) <> jsonb_array_length(old.options)
    or exists (
      select 1 from jsonb_array_elements(new.options) with ordinality n(v, i)
      join jsonb_array_elements(old.options) with ordinality o(v, i) using (i)
      where (n.v -> 'votes') is distinct from (o.v -> 'votes')
         or (n.v -> 'yes') is distinct from (o.v -> 'yes')
         or (n.v -> 'maybe') is distinct from (o.v -> 'maybe')
    )
  ) then
    raise exception 'Vote counts cannot be changed.' using errcode = '42501', hint = 'forbidden';
  end if;
  -- A time poll's slots change only on the server (poll.remove_slot): answers name them by id.
  if current_user::text in ('anon', 'authenticated') and new.kind = 'time' and exists (
    select 1 from jsonb_array_elements(new.options) with ordinality n(v, i)
    join jsonb_array_elements(old.options) with ordinality o(v, i) using (i)
    where (n.v -> 'id') is distinct from (o.v -> 'id') or (n.v -> 'start') is distinct from (o.v -> 'start')
       or (n.v -> 'minutes') is distinct from (o.v -> 'minutes') or (n.v -> 'day') is distinct from (o.v -> 'day')
  ) then
    raise exception 'The time slots cannot be changed.' using errcode = '42501', hint = 'forbidden';
  end if;
  return new;
end
$$;
revoke all on function public.voting_posts_guard_votes() from public, anon, authenticated, service_role;
grant execute on function public.voting_posts_guard_votes() to service_role;

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

create or replace function public.voting_posts_rules() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  tier text;
  option jsonb;
  cleaned jsonb := '[]'::jsonb;
  dir record;
  creator_name text;
begin
  new.title := btrim(new.title);
  new.description := nullif(new.description, '');
  new.kind := coalesce(new.kind, 'choice');
  if tg_op = 'INSERT' then
    -- Only a pick sets these (private.poll_pick).
    new.picked_slot_id := null;
    new.picked_event_id := null;
    new.pick_count := 0;
  end if;
  if new.kind = 'time' then
    new.options := private.time_poll_slots(new.options, new.time_zone, tg_op = 'INSERT');
  elsif jsonb_typeof(new.options) is distinct from 'array' or jsonb_array_length(new.options) not between 2 and 6 then
    raise exception 'Please provide at least 2 voting options' using errcode = '22023', hint = 'invalid';
  end if;
  for option in select value from jsonb_array_elements(case when new.kind = 'choice' then new.options else '[]' end) loop
    if jsonb_typeof(option) <> 'object' or jsonb_typeof(option -> 'text') <> 'string'
       or btrim(option ->> 'text') = '' then
      raise exception 'Please provide at least 2 voting options' using errcode = '22023', hint = 'invalid';
    end if;
    if char_length(btrim(option ->> 'text')) > 200 then
      raise exception 'An option can be at most 200 characters.' using errcode = '22001', hint = 'invalid';
    end if;
    cleaned := cleaned || jsonb_build_array(jsonb_build_object(
      'text', btrim(option ->> 'text'),
      -- Counts come only from user_votes: a new poll starts at zero.
      'votes', case when tg_op = 'INSERT' then 0 else coalesce((option ->> 'votes')::int, 0) end));
  end loop;
  if new.kind = 'choice' then
    new.options := cleaned;
  end if;

  if tg_op = 'INSERT' then
    new.created_by_id := coalesce(auth.uid(), new.created_by_id);
  end if;
  -- The creator as every reader of the poll sees them: the username (null without one), never the
  -- address (a public poll reaches every signed-in user). A username change writes the creator's
  -- polls again (user_profiles_poll_creator), so this follows it.
  select p.username into creator_name from public.user_profiles p where p.id = new.created_by_id;
  if not found and tg_op = 'INSERT' then
    raise exception 'Not authenticated' using errcode = '28000', hint = 'forbidden';
  end if;
  new.created_by := creator_name;

  if tg_op = 'UPDATE' then
    new.quota_month := old.quota_month;
    if old.deleted_at is null or new.deleted_at is not null then
      return new;
    end if;
    -- Un-deleting: the plan and the quota are checked as for a new poll.
  else
    new.quota_month := private.quota_month(new.created_by_id, new.created_at);
    if new.deadline is not null and new.deadline <= now() then
      raise exception 'The deadline cannot be earlier than now.' using errcode = '22023', hint = 'invalid';
    end if;
  end if;

  if new.directory_id is not null then
    select d.owner_id, d.deleted_at into dir from public.link_directories d where d.id = new.directory_id;
    if not found or dir.deleted_at is not null then
      raise exception 'Directory not found.' using errcode = 'PT404', hint = 'not_found';
    end if;
    if dir.owner_id <> new.created_by_id and not exists (
      select 1 from public.directory_members m
      where m.directory_id = new.directory_id and m.deleted_at is null
        and m.user_email = private.confirmed_email_of(new.created_by_id)
    ) then
      raise exception 'You do not have access to this directory.' using errcode = '42501', hint = 'forbidden';
    end if;
    tier := public.tier_of(dir.owner_id);
    if tier <> 'team' then
      raise exception 'Shared team voting boards are exclusive to the Team plan.'
        using errcode = 'P0001', hint = 'limit_reached';
    end if;
  else
    tier := public.tier_of(new.created_by_id);
  end if;

  if tier = 'free' and new.deleted_at is null then
    perform public.lock_account(new.created_by_id);
    if (select count(*) from public.voting_posts v
        where v.created_by_id = new.created_by_id and v.deleted_at is null and v.id <> new.id
          and v.quota_month = private.quota_month(new.created_by_id, now())) >= 5 then
      raise exception 'Upgrade to Pro to create more than 5 voting posts per month.'
        using errcode = 'P0001', hint = 'limit_reached';
    end if;
  end if;
  return new;
end
$$;
revoke all on function public.voting_posts_rules() from public, anon, authenticated, service_role;
grant execute on function public.voting_posts_rules() to service_role;

create or replace trigger t10_row_meta before insert or update on public.voting_posts
  for each row execute function public.row_meta('id', 'created_by', 'created_by_id', 'directory_id', 'kind',
    'time_zone', 'picked_slot_id', 'picked_event_id', 'pick_count');

create or replace trigger t10_row_meta before insert or update on public.slot_answers
  for each row execute function public.row_meta('id', 'post_id', 'user_id', 'directory_id');

create or replace trigger t20_rules before insert or update on public.slot_answers
  for each row execute function public.slot_answers_rules();

create or replace trigger t30_count after insert or update of answers, deleted_at on public.slot_answers
  for each row execute function public.slot_answers_count();

create or replace trigger t10_row_meta before insert or update on public.event_invitations
  for each row execute function public.row_meta('*');

-- supabase/schemas/sync_apply.sql

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

-- supabase/schemas/sync_helpers.sql

-- The message a rejection shows when the rule that refused it has no wording of its own (docs/product.md, Error messages).
create or replace function private.sync_fallback_message(p_name text) returns text
language sql immutable
set search_path = ''
as $$
  select case
    when p_name = 'profile.update' then 'Failed to save profile. Your username might be taken.'
    when p_name = 'directory.create' then 'Failed to create directory. Please try again.'
    when p_name like 'directory.%' then 'Failed to update directory. Please try again.'
    when p_name = 'link.delete' then 'Failed to delete link. Please try again.'
    when p_name like 'link.%' then 'Failed to save link. Please try again.'
    when p_name = 'member.remove' then 'Failed to remove member. Please try again.'
    when p_name like 'member.%' then 'Failed to update role. Please try again.'
    when p_name = 'task.set_completed' then 'Failed to update task. Please try again.'
    when p_name = 'event.delete' then 'Failed to delete event. Please try again.'
    when p_name = 'series.delete' then 'Failed to delete event(s). Please try again.'
    when p_name like 'event.%' or p_name like 'series.%' or p_name like 'occurrence.%'
      then 'Failed to save event/task. Please try again.'
    when p_name = 'poll.create' then 'Failed to create poll. Please try again.'
    when p_name = 'poll.vote' then 'Failed to record your vote. Please try again.'
    when p_name = 'poll.create_time' then 'Failed to create poll. Please try again.'
    when p_name = 'poll.answer' then 'Failed to save your answer. Please try again.'
    when p_name = 'poll.remove_slot' then 'Failed to remove the time slot. Please try again.'
    when p_name = 'poll.pick' then 'Failed to pick the time. Please try again.'
    when p_name = 'invitation.answer' then 'Failed to answer the invitation. Please try again.'
    else 'Invalid mutation.'
  end
$$;
revoke all on function private.sync_fallback_message(p_name text) from public, anon, authenticated, service_role;
grant execute on function private.sync_fallback_message(p_name text) to authenticated, service_role;

-- The rows a mutation touches, worked out before it runs (so a rejection can restore them).
create or replace function private.sync_touched(p_name text, p_args jsonb) returns jsonb
language plpgsql stable
set search_path = ''
as $$
declare
  occurrence_ids jsonb := coalesce((
    select jsonb_agg(o -> 'id') from jsonb_array_elements(
      case when jsonb_typeof(p_args -> 'occurrences') = 'array' then p_args -> 'occurrences' else '[]' end) o
    where jsonb_typeof(o -> 'id') = 'string'), '[]');
  series_ids jsonb;
begin
  case split_part(p_name, '.', 1)
    when 'profile' then return jsonb_build_object('user_profiles', jsonb_build_array(auth.uid()));
    when 'directory' then return jsonb_build_object('link_directories', jsonb_build_array(p_args -> 'id'));
    when 'link' then return jsonb_build_object('saved_links', jsonb_build_array(p_args -> 'id'));
    when 'member' then return jsonb_build_object('directory_members', jsonb_build_array(p_args -> 'id'));
    when 'event', 'task', 'occurrence' then return jsonb_build_object('calendar_events', jsonb_build_array(p_args -> 'id'));
    when 'series' then
      select coalesce(jsonb_agg(e.id), '[]') into series_ids from public.calendar_events e
      where e.deleted_at is null
        and e.series_id = private.sync_uuid(p_args, case when p_name = 'series.replace' then 'old_series_id' else 'series_id' end);
      if p_name = 'series.create' then series_ids := '[]'; end if;
      return jsonb_build_object('calendar_events', series_ids || occurrence_ids);
    when 'poll' then
      if p_name = 'poll.vote' then
        return jsonb_build_object('user_votes', jsonb_build_array(p_args -> 'id'),
                                  'voting_posts', jsonb_build_array(p_args -> 'post_id'));
      end if;
      if p_name = 'poll.answer' then
        -- The id sent, and the voter's row already there (another device's id): the answer names both.
        return jsonb_build_object(
          'slot_answers', jsonb_build_array(p_args -> 'id') || coalesce((
            select jsonb_agg(a.id) from public.slot_answers a
            where a.post_id = private.sync_uuid(p_args, 'post_id') and a.user_id = auth.uid()), '[]'),
          'voting_posts', jsonb_build_array(p_args -> 'post_id'));
      end if;
      if p_name = 'poll.remove_slot' then
        -- The answers the slot leaves, as far as the caller sees them.
        return jsonb_build_object(
          'voting_posts', jsonb_build_array(p_args -> 'id'),
          'slot_answers', coalesce((select jsonb_agg(a.id) from public.slot_answers a
                                    where a.post_id = private.sync_uuid(p_args, 'id')), '[]'));
      end if;
      if p_name = 'poll.pick' then
        -- The creator's event: the one sent, and the poll's earlier one (which moves).
        return jsonb_build_object(
          'voting_posts', jsonb_build_array(p_args -> 'id'),
          'calendar_events', jsonb_build_array(p_args -> 'event_id') || coalesce((
            select jsonb_build_array(v.picked_event_id) from public.voting_posts v
            where v.id = private.sync_uuid(p_args, 'id') and v.picked_event_id is not null), '[]'));
      end if;
      return jsonb_build_object('voting_posts', jsonb_build_array(p_args -> 'id'));
    when 'invitation' then
      -- The invitation, the event sent and the one an earlier accept made (a decline deletes it).
      return jsonb_build_object(
        'event_invitations', jsonb_build_array(p_args -> 'id'),
        'calendar_events', jsonb_build_array(p_args -> 'event_id') || coalesce((
          select jsonb_build_array(i.event_id) from public.event_invitations i
          where i.id = private.sync_uuid(p_args, 'id') and i.event_id is not null), '[]'));
    else return '{}';
  end case;
end
$$;
revoke all on function private.sync_touched(p_name text, p_args jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_touched(p_name text, p_args jsonb) to authenticated, service_role;

-- supabase/schemas/sync_poke.sql

-- The users a committed sync_push answer concerns: the pusher when anything applied, and for
-- every directory an applied mutation touched (looked up by id with tombstones, so a deleted link
-- still names its directory), its owner, the users whose confirmed address has a live membership
-- in it, those whose membership the push itself touched (a removed member pulls to purge), and
-- the invitees of a time poll it touched (a pick's invitations). Only user ids, never data. Rows
-- of the user's own tables (profile, events, votes) concern the pusher only; a public poll
-- concerns whoever has the voting board open (sync_poke_topics).
-- Service role only.
create or replace function private.sync_poke_targets(p_user uuid, p_answer jsonb)
returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  with touched as (
    select * from private.sync_poke_touched(p_answer)
  ),
  touched_members as (
    select m.directory_id, lower(m.user_email) as email
    from public.directory_members m join touched on touched.tbl = 'directory_members' and touched.id = m.id
  ),
  dirs as (
    select d.id from public.link_directories d join touched on touched.tbl = 'link_directories' and touched.id = d.id
    union
    select l.directory_id from public.saved_links l join touched on touched.tbl = 'saved_links' and touched.id = l.id
    union
    select p.directory_id from public.voting_posts p join touched on touched.tbl = 'voting_posts' and touched.id = p.id
    where p.directory_id is not null
    union
    select a.directory_id from public.slot_answers a join touched on touched.tbl = 'slot_answers' and touched.id = a.id
    where a.directory_id is not null
    union
    select directory_id from touched_members
  ),
  emails as (
    select lower(m.user_email) as email
    from public.directory_members m join dirs on dirs.id = m.directory_id
    where m.deleted_at is null
    union
    select email from touched_members
  )
  select p_user
  where p_user is not null and jsonb_typeof(p_answer -> 'results') = 'array'
    and p_answer -> 'results' @> '[{"status": "applied"}]'
  union
  select d.owner_id from public.link_directories d join dirs on dirs.id = d.id
  union
  -- A time poll's pick reaches the people it offered the time (their invitations, and accepted
  -- events that moved).
  select i.user_id from public.event_invitations i join touched on touched.tbl = 'voting_posts' and touched.id = i.post_id
  where i.deleted_at is null
  union
  select u.id from auth.users u join emails e on lower(u.email) = e.email where u.email_confirmed_at is not null
$$;
revoke all on function private.sync_poke_targets(p_user uuid, p_answer jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_poke_targets(p_user uuid, p_answer jsonb) to service_role;

-- supabase/schemas/sync_registry.sql

create or replace function private.sync_mutation_names() returns text[]
language sql immutable
set search_path = ''
as $$
  select array[
    'profile.update',
    'directory.create',
    'directory.update',
    'directory.delete',
    'link.create',
    'link.update',
    'link.delete',
    'link.set_favorite',
    'member.invite',
    'member.set_role',
    'member.remove',
    'event.create',
    'event.update',
    'event.delete',
    'task.set_completed',
    'series.create',
    'series.replace',
    'series.delete',
    'occurrence.detach',
    'poll.create',
    'poll.vote',
    'poll.create_time',
    'poll.answer',
    'poll.remove_slot',
    'poll.pick',
    'invitation.answer'
  ]
$$;
revoke all on function private.sync_mutation_names() from public, anon, authenticated, service_role;
grant execute on function private.sync_mutation_names() to authenticated, service_role;

create or replace function private.sync_synced_tables() returns text[]
language sql immutable
set search_path = ''
as $$
  select array[
    'user_profiles',
    'link_directories',
    'saved_links',
    'directory_members',
    'calendar_events',
    'voting_posts',
    'user_votes',
    'slot_answers',
    'event_invitations'
  ]
$$;
revoke all on function private.sync_synced_tables() from public, anon, authenticated, service_role;
grant execute on function private.sync_synced_tables() to authenticated, service_role;

-- One page of a pull: the rows the caller may see (each table's visibleTo), changed since p_since
-- (or live, on a first pull, or in a newly visible directory), after the last key of the previous
-- page, the first p_limit in (txid, table, id) order. Answers {changes: {table: rows}} with every
-- table, each table's rows in (txid, id) order, more (whether a row follows) and last (the page's
-- last key, [txid, table, id], or null). The keys are sorted first and only the rows kept are read
-- and turned into JSON; stable, so every read sees the snapshot of the pull.
create or replace function private.sync_pull_page(p_uid uuid, p_email text, p_view uuid[], p_since xid8, p_fresh uuid[],
  p_after_txid xid8, p_after_tbl text, p_after_id uuid, p_limit integer) returns jsonb
language plpgsql stable
set search_path = ''
as $$
declare
  v_tbls text[];
  v_keys uuid[];
  v_txids xid8[];
  v_n integer;
  v_more boolean;
  v_table text;
  v_ids uuid[];
  v_rows jsonb;
  v_names text[] := '{}';
  v_lists jsonb[] := '{}';
begin
  select coalesce(array_agg(k.tbl order by k.txid, k.tbl, k.id), '{}'),
         coalesce(array_agg(k.id order by k.txid, k.tbl, k.id), '{}'),
         coalesce(array_agg(k.txid order by k.txid, k.tbl, k.id), '{}')
  into v_tbls, v_keys, v_txids
  from (
    select a.txid, a.tbl, a.id
    from (
      select t.txid, 'user_profiles'::text collate "C" as tbl, t.id, t.deleted_at, null::uuid as dir
      from public.user_profiles t
      where t.id = p_uid
      union all
      select greatest(t.txid, o.owner_txid), 'link_directories', t.id, t.deleted_at, t.id
      from public.link_directories t
      left join private.sync_directory_owners(p_view) o on o.directory_id = t.id
      where t.id = any (p_view)
      union all
      select t.txid, 'saved_links', t.id, t.deleted_at, t.directory_id
      from public.saved_links t
      where t.directory_id = any (p_view)
      union all
      select t.txid, 'directory_members', t.id, t.deleted_at, t.directory_id
      from public.directory_members t
      where t.directory_id = any (p_view) or t.user_email = p_email
      union all
      select t.txid, 'calendar_events', t.id, t.deleted_at, null::uuid
      from public.calendar_events t
      where t.owner_id = p_uid
      union all
      select t.txid, 'voting_posts', t.id, t.deleted_at, t.directory_id
      from public.voting_posts t
      where t.directory_id = any (p_view) or t.directory_id is null
      union all
      select t.txid, 'user_votes', t.id, t.deleted_at, null::uuid
      from public.user_votes t
      where t.user_id = p_uid
      union all
      select t.txid, 'slot_answers', t.id, t.deleted_at, t.directory_id
      from public.slot_answers t
      where t.user_id = p_uid or t.directory_id = any (p_view)
      union all
      select t.txid, 'event_invitations', t.id, t.deleted_at, null::uuid
      from public.event_invitations t
      where t.user_id = p_uid
    ) a
    where ((p_since is null and a.deleted_at is null)
           or a.txid >= p_since
           or (a.dir = any (p_fresh) and a.deleted_at is null))
      and (p_after_txid is null or (a.txid, a.tbl, a.id) > (p_after_txid, p_after_tbl, p_after_id))
    order by a.txid, a.tbl, a.id
    limit p_limit + 1
  ) k;
  v_n := cardinality(v_keys);
  v_more := v_n > p_limit;
  if v_more then
    v_n := p_limit;
    v_tbls := v_tbls[1:v_n];
    v_keys := v_keys[1:v_n];
  end if;
  for v_table in select distinct x from unnest(v_tbls) x loop
    v_ids := array(select k.id from unnest(v_tbls, v_keys) k(tbl, id) where k.tbl = v_table);
    case v_table
      when 'user_profiles' then
        select coalesce(jsonb_agg(to_jsonb(t) order by t.txid, t.id), '[]') into v_rows
        from public.user_profiles t where t.id = any (v_ids);
      when 'link_directories' then
        select coalesce(jsonb_agg(to_jsonb(t) || jsonb_build_object('owner_tier', o.owner_tier)
                                  order by greatest(t.txid, o.owner_txid), t.id), '[]') into v_rows
        from public.link_directories t
        left join private.sync_directory_owners(p_view) o on o.directory_id = t.id
        where t.id = any (v_ids);
      when 'saved_links' then
        select coalesce(jsonb_agg(to_jsonb(t) order by t.txid, t.id), '[]') into v_rows
        from public.saved_links t where t.id = any (v_ids);
      when 'directory_members' then
        select coalesce(jsonb_agg(to_jsonb(t) order by t.txid, t.id), '[]') into v_rows
        from public.directory_members t where t.id = any (v_ids);
      when 'calendar_events' then
        select coalesce(jsonb_agg(to_jsonb(t) order by t.txid, t.id), '[]') into v_rows
        from public.calendar_events t where t.id = any (v_ids);
      when 'voting_posts' then
        select coalesce(jsonb_agg(to_jsonb(t) order by t.txid, t.id), '[]') into v_rows
        from public.voting_posts t where t.id = any (v_ids);
      when 'user_votes' then
        select coalesce(jsonb_agg(to_jsonb(t) order by t.txid, t.id), '[]') into v_rows
        from public.user_votes t where t.id = any (v_ids);
      when 'slot_answers' then
        select coalesce(jsonb_agg(to_jsonb(t) order by t.txid, t.id), '[]') into v_rows
        from public.slot_answers t where t.id = any (v_ids);
      when 'event_invitations' then
        select coalesce(jsonb_agg(to_jsonb(t) order by t.txid, t.id), '[]') into v_rows
        from public.event_invitations t where t.id = any (v_ids);
    end case;
    v_names := array_append(v_names, v_table);
    v_lists := array_append(v_lists, v_rows);
  end loop;
  -- Every table, with its rows or none, in one object built once (each step of building a JSON
  -- value copies what it holds).
  return jsonb_build_object(
    'changes', (select jsonb_object_agg(x.name, coalesce(y.list, '[]'::jsonb))
                from unnest(private.sync_synced_tables()) x(name)
                left join unnest(v_names, v_lists) y(name, list) on y.name = x.name),
    'more', v_more,
    'last', case when v_n > 0 then jsonb_build_array(v_txids[v_n]::text, v_tbls[v_n], v_keys[v_n]) end);
end
$$;
revoke all on function private.sync_pull_page(p_uid uuid, p_email text, p_view uuid[], p_since xid8, p_fresh uuid[], p_after_txid xid8, p_after_tbl text, p_after_id uuid, p_limit integer) from public, anon, authenticated, service_role;
grant execute on function private.sync_pull_page(p_uid uuid, p_email text, p_view uuid[], p_since xid8, p_fresh uuid[], p_after_txid xid8, p_after_tbl text, p_after_id uuid, p_limit integer) to authenticated, service_role;

-- {table: [ids]} → {rows: {table: [live rows visible to the caller]}, deleted: {table: [the other ids]}}:
-- how sync_push answers with the rows a mutation touched. It runs after every mutation, so each
-- table has static queries whose plans PL/pgSQL keeps for the session (a dynamic EXECUTE would be
-- planned for every mutation), and the usual single row is read by `id = $1`: the plan of
-- `id = any ($1)` is made again for every call, or, generic, can scan the table. Tables are read
-- as the caller, so RLS decides what is visible; a directory carries its owner's tier.
create or replace function private.sync_canonical(p_touched jsonb) returns jsonb
language plpgsql stable
set search_path = ''
as $$
declare
  tbl text;
  ids uuid[];
  found_row jsonb;
  found_rows jsonb;
  found_ids uuid[];
  rows_out jsonb := '{}';
  deleted_out jsonb := '{}';
begin
  for tbl, ids in
    select t.key, array(select distinct (x #>> '{}')::uuid from jsonb_array_elements(t.value) x
                        where jsonb_typeof(x) = 'string'
                          and x #>> '{}' ~* '^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$')
    from jsonb_each(coalesce(p_touched, '{}')) t
    where t.key = any (private.sync_synced_tables()) and jsonb_typeof(t.value) = 'array'
  loop
    if cardinality(ids) = 1 then
      found_row := null;
      case tbl
        when 'user_profiles' then
          select to_jsonb(t) into found_row
          from public.user_profiles t
          where t.id = ids[1] and t.deleted_at is null;
        when 'link_directories' then
          select to_jsonb(t) || jsonb_build_object('owner_tier', o.owner_tier) into found_row
          from public.link_directories t
          left join private.sync_directory_owners(ids) o on o.directory_id = t.id
          where t.id = ids[1] and t.deleted_at is null;
        when 'saved_links' then
          select to_jsonb(t) into found_row
          from public.saved_links t
          where t.id = ids[1] and t.deleted_at is null;
        when 'directory_members' then
          select to_jsonb(t) into found_row
          from public.directory_members t
          where t.id = ids[1] and t.deleted_at is null;
        when 'calendar_events' then
          select to_jsonb(t) into found_row
          from public.calendar_events t
          where t.id = ids[1] and t.deleted_at is null;
        when 'voting_posts' then
          select to_jsonb(t) into found_row
          from public.voting_posts t
          where t.id = ids[1] and t.deleted_at is null;
        when 'user_votes' then
          select to_jsonb(t) into found_row
          from public.user_votes t
          where t.id = ids[1] and t.deleted_at is null;
        when 'slot_answers' then
          select to_jsonb(t) into found_row
          from public.slot_answers t
          where t.id = ids[1] and t.deleted_at is null;
        when 'event_invitations' then
          select to_jsonb(t) into found_row
          from public.event_invitations t
          where t.id = ids[1] and t.deleted_at is null;
      end case;
      rows_out := rows_out || jsonb_build_object(tbl, case when found_row is null then '[]'::jsonb
                                                           else jsonb_build_array(found_row) end);
      deleted_out := deleted_out || jsonb_build_object(tbl, case when found_row is null then to_jsonb(ids)
                                                                 else '[]'::jsonb end);
      continue;
    end if;
    case tbl
        when 'user_profiles' then
          select coalesce(jsonb_agg(to_jsonb(t) order by t.id), '[]'), coalesce(array_agg(t.id), '{}')
          into found_rows, found_ids
          from public.user_profiles t
          where t.id = any (ids) and t.deleted_at is null;
        when 'link_directories' then
          select coalesce(jsonb_agg(to_jsonb(t) || jsonb_build_object('owner_tier', o.owner_tier) order by t.id), '[]'), coalesce(array_agg(t.id), '{}')
          into found_rows, found_ids
          from public.link_directories t
          left join private.sync_directory_owners(ids) o on o.directory_id = t.id
          where t.id = any (ids) and t.deleted_at is null;
        when 'saved_links' then
          select coalesce(jsonb_agg(to_jsonb(t) order by t.id), '[]'), coalesce(array_agg(t.id), '{}')
          into found_rows, found_ids
          from public.saved_links t
          where t.id = any (ids) and t.deleted_at is null;
        when 'directory_members' then
          select coalesce(jsonb_agg(to_jsonb(t) order by t.id), '[]'), coalesce(array_agg(t.id), '{}')
          into found_rows, found_ids
          from public.directory_members t
          where t.id = any (ids) and t.deleted_at is null;
        when 'calendar_events' then
          select coalesce(jsonb_agg(to_jsonb(t) order by t.id), '[]'), coalesce(array_agg(t.id), '{}')
          into found_rows, found_ids
          from public.calendar_events t
          where t.id = any (ids) and t.deleted_at is null;
        when 'voting_posts' then
          select coalesce(jsonb_agg(to_jsonb(t) order by t.id), '[]'), coalesce(array_agg(t.id), '{}')
          into found_rows, found_ids
          from public.voting_posts t
          where t.id = any (ids) and t.deleted_at is null;
        when 'user_votes' then
          select coalesce(jsonb_agg(to_jsonb(t) order by t.id), '[]'), coalesce(array_agg(t.id), '{}')
          into found_rows, found_ids
          from public.user_votes t
          where t.id = any (ids) and t.deleted_at is null;
        when 'slot_answers' then
          select coalesce(jsonb_agg(to_jsonb(t) order by t.id), '[]'), coalesce(array_agg(t.id), '{}')
          into found_rows, found_ids
          from public.slot_answers t
          where t.id = any (ids) and t.deleted_at is null;
        when 'event_invitations' then
          select coalesce(jsonb_agg(to_jsonb(t) order by t.id), '[]'), coalesce(array_agg(t.id), '{}')
          into found_rows, found_ids
          from public.event_invitations t
          where t.id = any (ids) and t.deleted_at is null;
    end case;
    rows_out := rows_out || jsonb_build_object(tbl, found_rows);
    deleted_out := deleted_out || jsonb_build_object(tbl, coalesce((
      select jsonb_agg(gone.id order by gone.id)
      from unnest(ids) gone(id)
      where not gone.id = any (found_ids)
    ), '[]'));
  end loop;
  return jsonb_build_object('rows', rows_out, 'deleted', deleted_out);
end
$$;
revoke all on function private.sync_canonical(p_touched jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_canonical(p_touched jsonb) to authenticated, service_role;
