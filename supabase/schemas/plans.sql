-- Plans: the subscription tier (billing webhook only) and the month that Free quotas count in.
--
-- The current definitions (docs/architecture.md, "Rules written once"): edit here, then run
-- `npm run db:diff` to write the migration. Tables, columns and data changes stay in migrations.

create or replace function private.quota_month(p_user uuid, p_at timestamptz) returns date
language sql stable security definer
set search_path = ''
as $$
  select (date_trunc('month', p_at at time zone z.tz))::date
  from (select coalesce((select p.time_zone from public.user_profiles p where p.id = p_user), 'UTC') as tz) z
$$;
revoke all on function private.quota_month(p_user uuid, p_at timestamp with time zone) from public, anon, authenticated, service_role;
grant execute on function private.quota_month(p_user uuid, p_at timestamp with time zone) to service_role;

-- The start of the current calendar month in the user's time zone.
create or replace function public.month_start_for(p_user uuid) returns timestamptz
language sql stable security definer
set search_path = ''
as $$
  select date_trunc('month', now() at time zone tz) at time zone tz
  from (select coalesce((select p.time_zone from public.user_profiles p where p.id = p_user), 'UTC') as tz) z
$$;
revoke all on function public.month_start_for(p_user uuid) from public, anon, authenticated, service_role;
grant execute on function public.month_start_for(p_user uuid) to service_role;

create or replace function public.my_tier() returns text
language sql stable security definer
set search_path = ''
as $$
  select public.tier_of(auth.uid())
$$;
revoke all on function public.my_tier() from public, anon, authenticated, service_role;
grant execute on function public.my_tier() to authenticated, service_role;

create or replace function public.set_subscription_tier(p_user_id uuid, p_tier text) returns text
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  if p_tier is null or p_tier not in ('free', 'pro', 'team') then
    raise exception 'Unknown subscription tier: %. Expected free, pro or team.', coalesce(p_tier, 'null')
      using errcode = '22023', hint = 'invalid';
  end if;
  update public.user_profiles p set subscription_tier = p_tier where p.id = p_user_id;
  if not found then
    raise exception 'No user with id %.', coalesce(p_user_id::text, 'null')
      using errcode = 'P0002', hint = 'not_found';
  end if;
  return p_tier;
end
$$;
revoke all on function public.set_subscription_tier(p_user_id uuid, p_tier text) from public, anon, authenticated, service_role;
grant execute on function public.set_subscription_tier(p_user_id uuid, p_tier text) to service_role;

create or replace function public.tier_of(p_user uuid) returns text
language sql stable security definer
set search_path = ''
as $$
  select coalesce((select p.subscription_tier from public.user_profiles p where p.id = p_user), 'free')
$$;
revoke all on function public.tier_of(p_user uuid) from public, anon, authenticated, service_role;
grant execute on function public.tier_of(p_user uuid) to service_role;
