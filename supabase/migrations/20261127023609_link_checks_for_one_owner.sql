-- Written by `npm run db:diff` from supabase/schemas: function public.claim_link_checks.
-- Review it, then commit it with the schema change.

-- The one-argument form it replaces goes first: two forms would make the RPC ambiguous.
drop function if exists public.claim_link_checks(integer);

-- supabase/schemas/link_checks.sql
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
