-- Deleting an account (auth.users, as the Supabase dashboard or admin API does) failed with
-- 'Directory not found.' for anyone who had created a link or invited a member: the cascade
-- deletes the user's directories, and the "on delete set null" of saved_links.created_by and
-- directory_members.inviter_id then updates rows whose directory is already gone, which the
-- rule triggers refused. They now let an UPDATE that keeps directory_id through when that
-- directory no longer exists (only that cascade can produce one: the foreign key keeps every
-- other row's directory). Otherwise the functions are unchanged (..._rules.sql).

create or replace function public.saved_links_rules() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  dir record;
  tier text;
begin
  select d.owner_id, d.deleted_at into dir from public.link_directories d where d.id = new.directory_id;
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

  tier := public.tier_of(new.owner_id);
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
