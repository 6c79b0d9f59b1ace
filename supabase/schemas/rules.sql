-- Rules: the row triggers that enforce the product rules of docs/product.md (limits, quotas, roles, text lengths, row metadata).
--
-- The current definitions (docs/architecture.md, "Rules written once"): edit here, then run
-- `npm run db:diff` to write the migration. Tables, columns and data changes stay in migrations.

-- The longest item of a text list, and of a poll's option texts (0 when empty). Used by CHECK
-- constraints, which run as the writing role.
create or replace function private.longest_item(p_items text[]) returns integer
language plpgsql immutable
set search_path = ''
as $$
declare
  x text;
  longest integer := 0;
begin
  -- A loop, not a query: the constraint runs it for every written row.
  foreach x in array coalesce(p_items, '{}') loop
    longest := greatest(longest, char_length(x));
  end loop;
  return longest;
end
$$;
revoke all on function private.longest_item(p_items text[]) from public, anon, authenticated, service_role;
grant execute on function private.longest_item(p_items text[]) to authenticated, service_role;

create or replace function private.longest_option(p_options jsonb) returns integer
language sql immutable
set search_path = ''
as $$
  select coalesce(max(char_length(o ->> 'text')), 0)
  from jsonb_array_elements(case when jsonb_typeof(p_options) = 'array' then p_options else '[]' end) o
  where jsonb_typeof(o) = 'object'
$$;
revoke all on function private.longest_option(p_options jsonb) from public, anon, authenticated, service_role;
grant execute on function private.longest_option(p_options jsonb) to authenticated, service_role;

-- Refuses a value over its maximum. TG_ARGV: (column, maximum, message) triplets; a text column
-- is measured in characters, an array column in items. Runs before the rule triggers (t05), so an
-- oversized value costs no further work.
create or replace function private.text_limits() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  row_json jsonb := to_jsonb(new);
  value jsonb;
  i integer := 0;
begin
  while i + 2 < tg_nargs loop
    value := row_json -> tg_argv[i];
    if (jsonb_typeof(value) = 'string' and char_length(value #>> '{}') > tg_argv[i + 1]::integer)
       or (jsonb_typeof(value) = 'array' and jsonb_array_length(value) > tg_argv[i + 1]::integer) then
      raise exception '%', tg_argv[i + 2] using errcode = '22001', hint = 'invalid';
    end if;
    i := i + 3;
  end loop;
  return new;
end
$$;
revoke all on function private.text_limits() from public, anon, authenticated, service_role;
-- A trigger function: a trigger runs it without an execute right, so no client role has one.
grant execute on function private.text_limits() to service_role;

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
  -- An all-day item is whole days (docs/architecture.md): it has a date, and an event ends after it starts.
  if new.all_day and new.starts_at is null then
    raise exception 'An all-day item needs a date.' using errcode = '22023', hint = 'invalid';
  end if;
  if new.all_day and not new.is_task and (new.ends_at is null or new.ends_at <= new.starts_at) then
    raise exception 'The end cannot be before the start.' using errcode = '22023', hint = 'invalid';
  end if;
  if tg_op = 'UPDATE' and new.series_id is not null and new.is_task is distinct from old.is_task then
    raise exception 'An event in a recurring series cannot become a task.' using errcode = '22023', hint = 'invalid';
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
revoke all on function public.calendar_events_rules() from public, anon, authenticated, service_role;
grant execute on function public.calendar_events_rules() to service_role;

create or replace function public.directory_members_rules() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  dir record;
begin
  select d.owner_id, d.deleted_at into dir from public.link_directories d where d.id = new.directory_id;
  if not found and tg_op = 'UPDATE' and new.directory_id = old.directory_id then
    -- An account's cascade: its directory is already deleted and this row is next.
    return new;
  end if;
  if not found or (dir.deleted_at is not null and new.deleted_at is null) then
    raise exception 'Directory not found.' using errcode = 'P0002', hint = 'not_found';
  end if;
  new.user_email := lower(btrim(new.user_email));
  new.role := coalesce(new.role, 'viewer');
  if tg_op = 'INSERT' then
    new.inviter_id := coalesce(auth.uid(), new.inviter_id);
  end if;
  if new.role = 'editor' and new.deleted_at is null
     and (tg_op = 'INSERT' or old.role <> 'editor' or old.deleted_at is not null)
     and public.tier_of(dir.owner_id) = 'free' then
    raise exception 'Upgrade to Pro to assign the Editor role.' using errcode = 'P0001', hint = 'limit_reached';
  end if;
  return new;
end
$$;
revoke all on function public.directory_members_rules() from public, anon, authenticated, service_role;
grant execute on function public.directory_members_rules() to service_role;

-- ---------------------------------------------------------------------------
-- link_directories
-- ---------------------------------------------------------------------------
create or replace function public.link_directories_rules() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  new.name := btrim(new.name);
  new.description := nullif(new.description, '');
  new.color := coalesce(new.color, 'blue');
  if new.deleted_at is null and (tg_op = 'INSERT' or old.deleted_at is not null) then
    perform public.lock_account(new.owner_id);
    if public.tier_of(new.owner_id) = 'free' and (
      select count(*) from public.link_directories d
      where d.owner_id = new.owner_id and d.deleted_at is null and d.id <> new.id
    ) >= 1 then
      raise exception 'Upgrade to Pro to create more directories.' using errcode = 'P0001', hint = 'limit_reached';
    end if;
  end if;
  if tg_op = 'UPDATE' and old.has_password and (not new.is_public or new.deleted_at is not null) then
    -- Turning public off clears the password.
    new.has_password := false;
    delete from public.directory_secrets s where s.directory_id = new.id;
  end if;
  return new;
end
$$;
revoke all on function public.link_directories_rules() from public, anon, authenticated, service_role;
grant execute on function public.link_directories_rules() to service_role;

-- A tombstoned directory tombstones its content, so every synced copy drops it.
create or replace function public.link_directories_tombstone() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  update public.saved_links set deleted_at = new.deleted_at where directory_id = new.id and deleted_at is null;
  update public.directory_members set deleted_at = new.deleted_at where directory_id = new.id and deleted_at is null;
  update public.voting_posts set deleted_at = new.deleted_at where directory_id = new.id and deleted_at is null;
  return null;
end
$$;
revoke all on function public.link_directories_tombstone() from public, anon, authenticated, service_role;
grant execute on function public.link_directories_tombstone() to service_role;

create or replace function public.row_meta() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  is_client boolean := current_user::text in ('anon', 'authenticated');
  col text;
begin
  if tg_op = 'UPDATE' then
    if is_client then
      foreach col in array tg_argv loop
        continue when col = 'created_at:past';
        if col = '*' then
          raise exception 'This record cannot be changed.' using errcode = '42501', hint = 'forbidden';
        end if;
        col := pg_catalog.regexp_replace(col, '^server:', '');
        if (to_jsonb(new) -> col) is distinct from (to_jsonb(old) -> col) then
          raise exception 'The field % cannot be changed.', col using errcode = '42501', hint = 'forbidden';
        end if;
      end loop;
      new.created_at := old.created_at;
    end if;
    new.updated_at := now();
  elsif is_client then
    -- 'server:<column>': a column only the server writes (a link's preview); a client's new row
    -- leaves it empty.
    foreach col in array tg_argv loop
      continue when col not like 'server:%';
      col := pg_catalog.substr(col, 8);
      if pg_catalog.jsonb_typeof(to_jsonb(new) -> col) is distinct from 'null' then
        raise exception 'The field % cannot be changed.', col using errcode = '42501', hint = 'forbidden';
      end if;
    end loop;
    -- 'created_at:past' (saved_links): a creation time the client gives is kept, as an imported
    -- bookmark's ADD_DATE, when it is from 1990 on and at most a minute ahead (clock skew, clamped).
    if 'created_at:past' = any (tg_argv) and new.created_at is not null then
      if new.created_at < timestamptz '1990-01-01 00:00:00+00' or new.created_at > now() + interval '1 minute' then
        raise exception 'Invalid creation date.' using errcode = '22023', hint = 'invalid';
      end if;
      new.created_at := least(new.created_at, now());
    else
      new.created_at := now();
    end if;
    new.updated_at := now();
  end if;
  new.txid := pg_current_xact_id();
  return new;
end
$$;
revoke all on function public.row_meta() from public, anon, authenticated, service_role;
grant execute on function public.row_meta() to service_role;

create or replace function public.saved_links_rules() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  dir record;
  tier text;
begin
  -- The directory and its owner's plan (public.tier_of's answer) in one read.
  select d.owner_id, d.deleted_at, coalesce(p.subscription_tier, 'free') as tier into dir
  from public.link_directories d left join public.user_profiles p on p.id = d.owner_id
  where d.id = new.directory_id;
  if not found and tg_op = 'UPDATE' and new.directory_id = old.directory_id then
    -- An account's cascade: its directory is already deleted and this row is next.
    return new;
  end if;
  if not found or (dir.deleted_at is not null and new.deleted_at is null) then
    raise exception 'Directory not found.' using errcode = 'P0002', hint = 'not_found';
  end if;
  new.owner_id := dir.owner_id;
  if tg_op = 'INSERT' then
    new.created_by := coalesce(auth.uid(), new.created_by);
  end if;
  new.url := btrim(new.url);
  if new.url !~* '^https?://[^[:space:]]+$' then
    raise exception 'Only http and https links can be saved.' using errcode = '22023', hint = 'invalid';
  end if;
  if tg_op = 'UPDATE' and new.url is distinct from old.url then
    -- Another page: what was read of the old one goes, and the new one is asked for
    -- (docs/architecture.md, Link previews).
    new.site_name := null;
    new.icon_url := null;
    new.image_url := null;
    new.preview_state := null;
    new.previewed_at := null;
    new.broken_at := null;
  end if;
  new.title := btrim(new.title);
  new.tags := coalesce((
    select array_agg(t order by first_pos)
    from (select btrim(x) as t, min(pos) as first_pos
          from unnest(coalesce(new.tags, '{}'::text[])) with ordinality as u(x, pos)
          where btrim(x) <> '' group by btrim(x)) tags
  ), '{}');
  if exists (select 1 from unnest(new.tags) t where char_length(t) > 50) then
    raise exception 'Tags can be at most 50 characters.' using errcode = '22023', hint = 'invalid';
  end if;
  new.is_favorite := coalesce(new.is_favorite, false);

  tier := dir.tier;
  if tier = 'free' then
    if cardinality(new.tags) > 0 and (tg_op = 'INSERT' or new.tags is distinct from old.tags) then
      raise exception 'Upgrade to Pro to use tags.' using errcode = 'P0001', hint = 'limit_reached';
    end if;
    if new.is_favorite and (tg_op = 'INSERT' or not old.is_favorite) then
      raise exception 'Upgrade to Pro to use favourites.' using errcode = 'P0001', hint = 'limit_reached';
    end if;
    if new.deleted_at is null
       and (tg_op = 'INSERT' or old.deleted_at is not null or old.owner_id <> new.owner_id) then
      perform public.lock_account(new.owner_id);
      if (select count(*) from public.saved_links l
          where l.owner_id = new.owner_id and l.deleted_at is null and l.id <> new.id) >= 30 then
        raise exception 'Upgrade to Pro to save more links.' using errcode = 'P0001', hint = 'limit_reached';
      end if;
    end if;
  end if;
  return new;
end
$$;
revoke all on function public.saved_links_rules() from public, anon, authenticated, service_role;
grant execute on function public.saved_links_rules() to service_role;

-- ---------------------------------------------------------------------------
-- user_profiles
-- ---------------------------------------------------------------------------
create or replace function public.user_profiles_rules() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  new.full_name := coalesce(btrim(new.full_name), '');
  new.bio := coalesce(new.bio, '');
  new.username := nullif(lower(btrim(new.username)), '');
  if new.username is distinct from old.username and new.username is not null then
    if new.username !~ '^[a-z0-9_-]{3,30}$' then
      raise exception 'Please choose a username (min 3 chars).' using errcode = '22023', hint = 'invalid';
    end if;
    if exists (select 1 from public.user_profiles p where lower(p.username) = new.username and p.id <> new.id) then
      raise exception 'Username taken, try another.' using errcode = '23505', hint = 'conflict';
    end if;
  end if;
  if new.time_zone is distinct from old.time_zone then
    if not exists (select 1 from pg_catalog.pg_timezone_names t where t.name = new.time_zone) then
      raise exception 'Unknown time zone: %', new.time_zone using errcode = '22023', hint = 'invalid';
    end if;
  end if;
  return new;
end
$$;
revoke all on function public.user_profiles_rules() from public, anon, authenticated, service_role;
grant execute on function public.user_profiles_rules() to service_role;

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
  select v.is_active, v.deadline, v.deleted_at, v.options, v.directory_id into post
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

-- A client may edit a poll's texts but never its counts (SECURITY INVOKER: current_user is the API role).
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
    )
  ) then
    raise exception 'Vote counts cannot be changed.' using errcode = '42501', hint = 'forbidden';
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

create or replace trigger t05_limits before insert or update on public.calendar_events
  for each row execute function private.text_limits(
    'title', '500', 'The title can be at most 500 characters.',
    'description', '5000', 'The description can be at most 5000 characters.');

create or replace trigger t10_row_meta before insert or update on public.calendar_events
  for each row execute function public.row_meta('id', 'owner_id');

create or replace trigger t20_rules before insert or update on public.calendar_events
  for each row execute function public.calendar_events_rules();

create or replace trigger t05_limits before insert or update on public.directory_members
  for each row execute function private.text_limits(
    'user_email', '320', 'The e-mail address can be at most 320 characters.');

create or replace trigger t10_row_meta before insert or update on public.directory_members
  for each row execute function public.row_meta('id', 'directory_id', 'user_email', 'inviter_id');

create or replace trigger t20_rules before insert or update on public.directory_members
  for each row execute function public.directory_members_rules();

create or replace trigger t05_limits before insert or update on public.link_directories
  for each row execute function private.text_limits(
    'name', '100', 'The directory name can be at most 100 characters.',
    'description', '1000', 'The description can be at most 1000 characters.');

create or replace trigger t10_row_meta before insert or update on public.link_directories
  for each row execute function public.row_meta('id', 'owner_id', 'has_password');

create or replace trigger t20_rules before insert or update on public.link_directories
  for each row execute function public.link_directories_rules();

create or replace trigger t30_tombstone after update of deleted_at on public.link_directories
  for each row when (old.deleted_at is null and new.deleted_at is not null)
  execute function public.link_directories_tombstone();

create or replace trigger t05_limits before insert or update on public.saved_links
  for each row execute function private.text_limits(
    'url', '2048', 'The URL can be at most 2048 characters.',
    'title', '500', 'The title can be at most 500 characters.',
    'notes', '10000', 'The notes can be at most 10000 characters.',
    'description', '2000', 'The description can be at most 2000 characters.',
    'tags', '50', 'A link can have at most 50 tags.');

create or replace trigger t10_row_meta before insert or update on public.saved_links
  for each row execute function public.row_meta('id', 'owner_id', 'created_by', 'created_at:past',
    'server:site_name', 'server:icon_url', 'server:image_url', 'server:preview_state', 'server:previewed_at',
    'server:broken_at');

create or replace trigger t20_rules before insert or update on public.saved_links
  for each row execute function public.saved_links_rules();

create or replace trigger t05_limits before insert or update on public.user_profiles
  for each row execute function private.text_limits(
    'full_name', '200', 'The name can be at most 200 characters.',
    'bio', '500', 'The bio can be at most 500 characters.',
    'username', '30', 'A username can be at most 30 characters.',
    'time_zone', '64', 'Unknown time zone.');

create or replace trigger t10_row_meta before insert or update on public.user_profiles
  for each row execute function public.row_meta('id', 'email', 'subscription_tier');

create or replace trigger t20_rules before insert or update on public.user_profiles
  for each row execute function public.user_profiles_rules();

create or replace trigger t30_poll_creator after update of username on public.user_profiles
  for each row when (old.username is distinct from new.username)
  execute function private.user_profiles_poll_creator();

create or replace trigger t10_row_meta before insert or update on public.user_votes
  for each row execute function public.row_meta('*');

create or replace trigger t20_rules before insert on public.user_votes
  for each row execute function public.user_votes_rules();

create or replace trigger t30_count after insert on public.user_votes
  for each row execute function public.user_votes_count();

create or replace trigger t05_limits before insert or update on public.voting_posts
  for each row execute function private.text_limits(
    'title', '500', 'The title can be at most 500 characters.',
    'description', '5000', 'The description can be at most 5000 characters.');

create or replace trigger t10_row_meta before insert or update on public.voting_posts
  for each row execute function public.row_meta('id', 'created_by', 'created_by_id', 'directory_id');

create or replace trigger t15_guard_votes before update of options on public.voting_posts
  for each row execute function public.voting_posts_guard_votes();

create or replace trigger t20_rules before insert or update on public.voting_posts
  for each row execute function public.voting_posts_rules();
