-- Poll and event rules.
--
-- * A Free month quota (10 events, 5 polls) was counted in the month of the profile's time zone
--   at the moment of the check, so moving the zone a day ahead near a month's end started a new
--   month at once. Each row now records, when it is inserted, the month it counts in
--   (quota_month: created_at's month in the owner's zone of that moment); the quota counts the
--   rows recorded under the current month. Editing the zone only moves the boundary, and every
--   recorded month still holds at most 10 events and 5 polls.
-- * Un-deleting a poll through an UPDATE skipped the quota (the rule returned early on update):
--   un-deleting is now checked as creating is.
-- * A poll whose deadline has already passed is refused when created.
-- * A team poll is allowed by the DIRECTORY OWNER's plan (Team), not the creator's, and does not
--   count against the creator's Free quota; only a confirmed member or the owner creates one.

create or replace function private.quota_month(p_user uuid, p_at timestamptz) returns date
language sql stable security definer
set search_path = ''
as $$
  select (date_trunc('month', p_at at time zone z.tz))::date
  from (select coalesce((select p.time_zone from public.user_profiles p where p.id = p_user), 'UTC') as tz) z
$$;
revoke all on function private.quota_month(uuid, timestamptz) from public, anon, authenticated;
grant execute on function private.quota_month(uuid, timestamptz) to service_role;

alter table public.calendar_events add column quota_month date;
alter table public.voting_posts add column quota_month date;
-- The rows so far count in the month of their creation in the owner's current zone. Triggers are
-- off for the backfill: it changes no synced value, so no client needs the rows again.
alter table public.calendar_events disable trigger user;
update public.calendar_events e set quota_month = private.quota_month(e.owner_id, e.created_at);
alter table public.calendar_events enable trigger user;
alter table public.voting_posts disable trigger user;
update public.voting_posts v set quota_month = private.quota_month(v.created_by_id, v.created_at);
alter table public.voting_posts enable trigger user;
alter table public.calendar_events alter column quota_month set not null;
alter table public.voting_posts alter column quota_month set not null;
create index calendar_events_quota_idx on public.calendar_events (owner_id, quota_month)
  where not is_task and deleted_at is null;
create index voting_posts_quota_idx on public.voting_posts (created_by_id, quota_month) where deleted_at is null;

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

create or replace function public.voting_posts_rules() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  tier text;
  option jsonb;
  cleaned jsonb := '[]'::jsonb;
  dir record;
  creator_email text;
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

  if tg_op = 'UPDATE' then
    new.quota_month := old.quota_month;
    if old.deleted_at is null or new.deleted_at is not null then
      return new;
    end if;
    -- Un-deleting: the plan and the quota are checked as for a new poll.
  else
    new.created_by_id := coalesce(auth.uid(), new.created_by_id);
    select p.email into creator_email from public.user_profiles p where p.id = new.created_by_id;
    if not found then
      raise exception 'Not authenticated' using errcode = '28000', hint = 'forbidden';
    end if;
    new.created_by := creator_email;
    new.quota_month := private.quota_month(new.created_by_id, new.created_at);
    if new.deadline is not null and new.deadline <= now() then
      raise exception 'The deadline cannot be in the past.' using errcode = '22023', hint = 'invalid';
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

-- Team polls: the trigger above checks the directory owner's plan and the creator's membership
-- (with the rule's own message); the policy keeps the creator and the directory's visibility.
alter policy voting_posts_insert on public.voting_posts
  with check (created_by_id = (select auth.uid())
              and (directory_id is null or public.can_view_directory(directory_id)));
