-- Written by `npm run db:diff` from supabase/schemas: function public.saved_links_rules, function public.link_image_source, function public.link_preview_claim, function public.link_preview_finish.
-- Review it, then commit it with the schema change.

-- supabase/schemas/link_previews.sql
-- The start of a link's preview, for the signed-in caller p_user (service role only: the
-- link-preview function calls it). Answers {state}:
-- - 'missing': no such live link, or the caller may not edit it (the directory's owner, or an editor
--   by confirmed address, as private.can_edit_directory);
-- - 'done' or 'failed': the preview was read already (asking again fetches nothing; p_retry asks
--   again for a failed one);
-- - 'pending': another ask is fetching it now (a claim younger than 30 s);
-- - 'claimed', with `url` and `host`: this ask fetches; the allowance is counted for the caller and
--   the host, and beyond it nothing is claimed (429).
create or replace function public.link_preview_claim(p_user uuid, p_link uuid, p_retry boolean)
returns jsonb
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_link record;
  v_host text;
begin
  if p_user is null or p_link is null then
    raise exception 'A user and a link are required.' using errcode = '22023', hint = 'invalid';
  end if;
  select l.url, l.directory_id, l.preview_state, d.owner_id into v_link
  from public.saved_links l join public.link_directories d on d.id = l.directory_id
  where l.id = p_link and l.deleted_at is null and d.deleted_at is null;
  if not found or not (v_link.owner_id = p_user or exists (
    select 1 from public.directory_members m join auth.users u on lower(u.email) = lower(m.user_email)
    where m.directory_id = v_link.directory_id and m.deleted_at is null and m.role = 'editor'
      and u.id = p_user and u.email_confirmed_at is not null)) then
    return jsonb_build_object('state', 'missing');
  end if;
  if v_link.preview_state = 'done' or (v_link.preview_state = 'failed' and not coalesce(p_retry, false)) then
    return jsonb_build_object('state', v_link.preview_state);
  end if;
  insert into private.link_preview_claims as c (link_id, claimed_at) values (p_link, now())
  on conflict (link_id) do update set claimed_at = excluded.claimed_at
    where c.claimed_at < now() - interval '30 seconds';
  if not found then
    return jsonb_build_object('state', 'pending');
  end if;
  v_host := pg_catalog.lower(pg_catalog.substring(v_link.url, '^[A-Za-z]+://(?:[^@/?#]*@)?(\[[^]]*\]|[^:/?#]*)'));
  perform public.link_preview_allowance(p_user, coalesce(nullif(v_host, ''), 'invalid'));
  return jsonb_build_object('state', 'claimed', 'url', v_link.url);
end
$$;
revoke all on function public.link_preview_claim(p_user uuid, p_link uuid, p_retry boolean) from public, anon, authenticated, service_role;
grant execute on function public.link_preview_claim(p_user uuid, p_link uuid, p_retry boolean) to service_role;

-- The end of a link's preview (service role only): p_preview is {ok, title, description,
-- site_name, icon_url, image_url}. Applied only while the link is live and its URL is still
-- p_url (a URL changed meanwhile asks for a preview of its own). The title is filled only while
-- it is the URL itself (what the share target and an import save for a page without a title), the
-- description only while empty: what a user wrote is never overwritten. The link's owner and the
-- directory's members are poked to pull it. Answers 'done', 'failed' or 'stale' (nothing applied).
create or replace function public.link_preview_finish(p_link uuid, p_url text, p_preview jsonb)
returns text
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_ok boolean := coalesce((p_preview ->> 'ok')::boolean, false);
  v_state text := case when v_ok then 'done' else 'failed' end;
  v_topic text;
  v_found boolean;
begin
  if p_link is null or p_url is null or jsonb_typeof(p_preview) is distinct from 'object' then
    raise exception 'A link, its URL and a preview are required.' using errcode = '22023', hint = 'invalid';
  end if;
  update public.saved_links l set
    title = case when v_ok and (coalesce(btrim(l.title), '') = '' or l.title = l.url)
                 then coalesce(nullif(btrim(p_preview ->> 'title'), ''), l.title) else l.title end,
    description = case when v_ok and coalesce(btrim(l.description), '') = ''
                       then coalesce(nullif(btrim(p_preview ->> 'description'), ''), l.description)
                       else l.description end,
    site_name = case when v_ok then nullif(p_preview ->> 'site_name', '') end,
    icon_url = case when v_ok then nullif(p_preview ->> 'icon_url', '') end,
    image_url = case when v_ok then nullif(p_preview ->> 'image_url', '') end,
    preview_state = v_state,
    previewed_at = now()
  where l.id = p_link and l.deleted_at is null and l.url = p_url;
  v_found := found;
  delete from private.link_preview_claims where link_id = p_link;
  if not v_found then
    return 'stale';
  end if;
  for v_topic in
    select t from private.sync_poke_topics(null, jsonb_build_object('results', jsonb_build_array(
      jsonb_build_object('status', 'applied', 'rows',
        jsonb_build_object('saved_links', jsonb_build_array(jsonb_build_object('id', p_link))))))) t
  loop
    perform realtime.send('{}'::jsonb, 'poke', v_topic, true);
  end loop;
  return v_state;
end
$$;
revoke all on function public.link_preview_finish(p_link uuid, p_url text, p_preview jsonb) from public, anon, authenticated, service_role;
grant execute on function public.link_preview_finish(p_link uuid, p_url text, p_preview jsonb) to service_role;

-- The picture the link-image function may fetch for p_link (p_kind 'icon' or 'image'), counted
-- for the caller's address and the picture's host (service role only): null when the link is gone,
-- has no read preview or no such picture (nothing counted); beyond 300 a minute per address or 60
-- a minute from one host, 429 with Retry-After and nothing counted. Browsers keep a shown picture a
-- week (its Cache-Control), so a screen of cards asks each once.
create or replace function public.link_image_source(p_link uuid, p_kind text, p_client text) returns text
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_url text;
  v_host text;
begin
  if p_link is null or p_kind is null or p_kind not in ('icon', 'image') or coalesce(p_client, '') = '' then
    raise exception 'A link, a kind (icon or image) and a client address are required.'
      using errcode = '22023', hint = 'invalid';
  end if;
  select case when p_kind = 'icon' then l.icon_url else l.image_url end into v_url
  from public.saved_links l
  where l.id = p_link and l.deleted_at is null and l.preview_state = 'done';
  if v_url is null then
    return null;
  end if;
  v_host := pg_catalog.lower(pg_catalog.substring(v_url, '^[A-Za-z]+://(?:[^@/?#]*@)?(\[[^]]*\]|[^:/?#]*)'));
  perform private.throttle_all(jsonb_build_array(
    jsonb_build_object('bucket', 'link_image_client', 'subject', pg_catalog.left(p_client, 100), 'max', 300, 'seconds', 60),
    jsonb_build_object('bucket', 'link_image_host', 'subject', coalesce(nullif(v_host, ''), 'invalid'), 'max', 60, 'seconds', 60)),
    'Too many link pictures. Please try again later.');
  return v_url;
end
$$;
revoke all on function public.link_image_source(p_link uuid, p_kind text, p_client text) from public, anon, authenticated, service_role;
grant execute on function public.link_image_source(p_link uuid, p_kind text, p_client text) to service_role;

-- supabase/schemas/rules.sql

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
