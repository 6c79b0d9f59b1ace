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
  update public.slot_answers set deleted_at = new.deleted_at where directory_id = new.id and deleted_at is null;
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
  -- The rows as JSON, made once per row when a column is asked for (not once per column).
  new_json jsonb;
  old_json jsonb;
begin
  if tg_op = 'UPDATE' then
    if is_client then
      foreach col in array tg_argv loop
        continue when col = 'created_at:past';
        if col = '*' then
          raise exception 'This record cannot be changed.' using errcode = '42501', hint = 'forbidden';
        end if;
        col := pg_catalog.regexp_replace(col, '^server:', '');
        if new_json is null then
          new_json := to_jsonb(new);
          old_json := to_jsonb(old);
        end if;
        if (new_json -> col) is distinct from (old_json -> col) then
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
      new_json := coalesce(new_json, to_jsonb(new));
      if pg_catalog.jsonb_typeof(new_json -> col) is distinct from 'null' then
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
  -- The voter's name in time polls' grids (slot_answers_rules sets it from the profile).
  update public.slot_answers a set updated_at = now()
  where a.user_id = new.id
    and a.voter_name is distinct from coalesce(nullif(new.username, ''), nullif(btrim(new.full_name), ''));
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
  for each row execute function public.row_meta('id', 'created_by', 'created_by_id', 'directory_id', 'kind',
    'time_zone', 'picked_slot_id', 'picked_event_id', 'pick_count');

create or replace trigger t15_guard_votes before update of options on public.voting_posts
  for each row execute function public.voting_posts_guard_votes();

create or replace trigger t20_rules before insert or update on public.voting_posts
  for each row execute function public.voting_posts_rules();

create or replace trigger t10_row_meta before insert or update on public.slot_answers
  for each row execute function public.row_meta('id', 'post_id', 'user_id', 'directory_id');

create or replace trigger t20_rules before insert or update on public.slot_answers
  for each row execute function public.slot_answers_rules();

create or replace trigger t30_count after insert or update of answers, deleted_at on public.slot_answers
  for each row execute function public.slot_answers_count();

create or replace trigger t10_row_meta before insert or update on public.event_invitations
  for each row execute function public.row_meta('*');
