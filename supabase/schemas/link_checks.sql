-- Broken links (Pro and Team): what the check-links function asks of the database
-- (docs/architecture.md, Broken links).
--
-- The current definitions (docs/architecture.md, "Rules written once"): edit here, then run
-- `npm run db:diff` to write the migration. Tables, columns and data changes stay in migrations.

-- Up to p_limit links to check now (service role only): live links in live directories whose owner
-- is on Pro or Team (p_owner: only that owner's; an operator's "check this account now"), never
-- checked or last checked over 7 days ago, the longest waiting first.
-- Each is recorded as checked now in the same statement, so two runs never check one link twice in
-- a week. Answers [{id, url}].
create or replace function public.claim_link_checks(p_limit integer, p_owner uuid default null) returns jsonb
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_claimed jsonb;
begin
  if p_limit is null or p_limit < 1 or p_limit > 10000 then
    raise exception 'A limit from 1 to 10000 is required.' using errcode = '22023', hint = 'invalid';
  end if;
  with due as (
    select l.id, l.url
    from public.saved_links l
    join public.link_directories d on d.id = l.directory_id and d.deleted_at is null
    join public.user_profiles p on p.id = d.owner_id and p.subscription_tier in ('pro', 'team')
    left join private.link_checks c on c.link_id = l.id
    where l.deleted_at is null and (c.checked_at is null or c.checked_at < now() - interval '7 days')
      and (p_owner is null or d.owner_id = p_owner)
    order by c.checked_at nulls first, l.id
    limit p_limit
    for update of l skip locked
  ),
  recorded as (
    insert into private.link_checks as c (link_id, checked_at)
    select id, now() from due
    on conflict (link_id) do update set checked_at = excluded.checked_at
    returning c.link_id
  )
  select coalesce(jsonb_agg(jsonb_build_object('id', due.id, 'url', due.url)), '[]'::jsonb) into v_claimed
  from due join recorded on recorded.link_id = due.id;
  return v_claimed;
end
$$;
revoke all on function public.claim_link_checks(p_limit integer, p_owner uuid) from public, anon, authenticated, service_role;
grant execute on function public.claim_link_checks(p_limit integer, p_owner uuid) to service_role;

-- What a check found (service role only): p_results is [{id, url, broken}]. A link newly found
-- broken gets broken_at = now(); a broken one that answers again loses it; an unchanged one, or one
-- whose URL changed since it was claimed, is not written, so no device pulls it again. The owners
-- and members of the directories whose links changed are poked to pull. Answers the number of
-- links whose mark changed.
create or replace function public.finish_link_checks(p_results jsonb) returns integer
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_changed jsonb;
  v_topic text;
begin
  if jsonb_typeof(p_results) is distinct from 'array' then
    raise exception 'A list of results is required.' using errcode = '22023', hint = 'invalid';
  end if;
  with results as (
    select (r ->> 'id')::uuid as id, r ->> 'url' as url, (r ->> 'broken')::boolean as broken
    from jsonb_array_elements(p_results) r
    where jsonb_typeof(r) = 'object' and (r ->> 'id') ~ '^[0-9a-fA-F-]{36}$' and jsonb_typeof(r -> 'broken') = 'boolean'
  ),
  changed as (
    update public.saved_links l
    set broken_at = case when results.broken then now() end
    from results
    where l.id = results.id and l.url = results.url and l.deleted_at is null
      and (l.broken_at is not null) is distinct from results.broken
    returning l.id
  )
  select coalesce(jsonb_agg(jsonb_build_object('id', id)), '[]'::jsonb) into v_changed from changed;
  if jsonb_array_length(v_changed) > 0 then
    for v_topic in
      select t from private.sync_poke_topics(null, jsonb_build_object('results', jsonb_build_array(
        jsonb_build_object('status', 'applied', 'rows', jsonb_build_object('saved_links', v_changed))))) t
    loop
      perform realtime.send('{}'::jsonb, 'poke', v_topic, true);
    end loop;
  end if;
  return jsonb_array_length(v_changed);
end
$$;
revoke all on function public.finish_link_checks(p_results jsonb) from public, anon, authenticated, service_role;
grant execute on function public.finish_link_checks(p_results jsonb) to service_role;
