-- Written by `npm run db:diff` from supabase/schemas: function public.voting_posts_rules, function private.user_profiles_poll_creator, trigger public.user_profiles.t30_poll_creator.
-- Review it, then commit it with the schema change.

-- supabase/schemas/rules.sql
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
  return null;
end
$$;
revoke all on function private.user_profiles_poll_creator() from public, anon, authenticated, service_role;
grant execute on function private.user_profiles_poll_creator() to service_role;

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
  if jsonb_typeof(new.options) is distinct from 'array' or jsonb_array_length(new.options) not between 2 and 6 then
    raise exception 'Please provide at least 2 voting options' using errcode = '22023', hint = 'invalid';
  end if;
  for option in select value from jsonb_array_elements(new.options) loop
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
  new.options := cleaned;

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

create or replace trigger t30_poll_creator after update of username on public.user_profiles
  for each row when (old.username is distinct from new.username)
  execute function private.user_profiles_poll_creator();
