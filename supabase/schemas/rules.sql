-- Rules: what every table's rule triggers share (text limits, row metadata), and the rules of directories, members, links and profiles (docs/product.md: limits, quotas, roles). The calendar's, the polls' and the triggers themselves are in rules_*.sql.
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
