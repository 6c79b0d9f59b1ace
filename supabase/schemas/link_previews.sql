-- Link previews: what the function that reads a saved link's page asks of the database
-- (docs/architecture.md, Link previews: the guarded fetch).
--
-- The current definitions (docs/architecture.md, "Rules written once"): edit here, then run
-- `npm run db:diff` to write the migration. Tables, columns and data changes stay in migrations.

-- Counts one preview for a user and one fetch from a host (service role only: the function calls it
-- for the signed-in caller, before it fetches the page): at most 100 previews an hour per user, and
-- 20 fetches a minute from one host across all users, so no user can make the server a scanner and no
-- site is hammered by an import. The host is the URL's host name, lower-cased, without the root's
-- trailing dot. Beyond either limit: 429 with Retry-After, and nothing is counted.
create or replace function public.link_preview_allowance(p_user uuid, p_host text) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_host text := pg_catalog.lower(pg_catalog.rtrim(pg_catalog.btrim(coalesce(p_host, '')), '.'));
begin
  if p_user is null or v_host = '' or pg_catalog.char_length(v_host) > 253 then
    raise exception 'A user and a host name (at most 253 characters) are required.'
      using errcode = '22023', hint = 'invalid';
  end if;
  perform private.throttle_all(jsonb_build_array(
    jsonb_build_object('bucket', 'link_preview_user', 'subject', p_user::text, 'max', 100, 'seconds', 3600),
    jsonb_build_object('bucket', 'link_preview_host', 'subject', v_host, 'max', 20, 'seconds', 60)),
    'Too many link previews. Please try again later.');
end
$$;
revoke all on function public.link_preview_allowance(p_user uuid, p_host text) from public, anon, authenticated, service_role;
grant execute on function public.link_preview_allowance(p_user uuid, p_host text) to service_role;

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
