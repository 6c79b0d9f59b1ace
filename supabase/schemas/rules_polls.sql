-- Rules of the polls and their votes: a vote counted once under the poll's lock, the counts no client writes, a poll's fields and quotas.
--
-- The current definitions (docs/architecture.md, "Rules written once"): edit here, then run
-- `npm run db:diff` to write the migration. Tables, columns and data changes stay in migrations.

-- Counts the vote: one UPDATE under the poll's row lock; a concurrent vote re-reads the
-- latest options before applying its own increment, so none is lost.
create or replace function public.user_votes_count() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  update public.voting_posts v
  set options = jsonb_set(v.options, array[new.option_index::text, 'votes'],
                          to_jsonb(coalesce((v.options -> new.option_index ->> 'votes')::int, 0) + 1))
  where v.id = new.post_id;
  return null;
end
$$;
revoke all on function public.user_votes_count() from public, anon, authenticated, service_role;
grant execute on function public.user_votes_count() to service_role;

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
