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

-- The caller's plan. No policy or client calls it; kept for the service role.
create or replace function private.my_tier() returns text
language sql stable security definer
set search_path = ''
as $$
  select public.tier_of(auth.uid())
$$;
revoke all on function private.my_tier() from public, anon, authenticated, service_role;
grant execute on function private.my_tier() to service_role;

-- The one path that changes a tier: it marks the transaction so the guard trigger below lets the
-- change through. Only definer functions that no client role may execute call it (the billing
-- webhook's apply_billing_event, and set_subscription_tier for operators holding the service key).
create or replace function private.apply_tier(p_user uuid, p_tier text) returns boolean
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  perform set_config('linkboard.tier_change', 'billing', true);
  update public.user_profiles p set subscription_tier = p_tier
  where p.id = p_user and p.subscription_tier is distinct from p_tier;
  perform set_config('linkboard.tier_change', '', true);
  return found;
end
$$;
revoke all on function private.apply_tier(p_user uuid, p_tier text) from public, anon, authenticated, service_role;

-- The billing webhook's path: the tier with what the user's devices show of the subscription (the
-- cycle, the end of the paid period, whether the plan ends then), in the same marked update.
create or replace function private.apply_billing_profile(
  p_user uuid, p_tier text, p_cycle text, p_period_end timestamptz, p_cancel_at_period_end boolean
) returns boolean
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  perform set_config('linkboard.tier_change', 'billing', true);
  update public.user_profiles p set
    subscription_tier = p_tier,
    billing_cycle = p_cycle,
    plan_period_end = p_period_end,
    plan_cancel_at_period_end = p_cancel_at_period_end
  where p.id = p_user
    and (p.subscription_tier, p.billing_cycle, p.plan_period_end, p.plan_cancel_at_period_end)
        is distinct from (p_tier, p_cycle, p_period_end, p_cancel_at_period_end);
  perform set_config('linkboard.tier_change', '', true);
  return found;
end
$$;
revoke all on function private.apply_billing_profile(p_user uuid, p_tier text, p_cycle text, p_period_end timestamp with time zone, p_cancel_at_period_end boolean) from public, anon, authenticated, service_role;

-- Refuses any change of subscription_tier or of the subscription's cycle, period end and
-- cancellation shown with it (and any new profile with other than their defaults) made on behalf of
-- an API role (anon, authenticated, service_role: the SET ROLE of the request, which a definer
-- function does not change) unless private.apply_tier or private.apply_billing_profile made it.
-- Database owners and migrations (no API role) are not API callers and pass.
create or replace function private.guard_subscription_tier() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if (case when tg_op = 'INSERT'
           then (new.subscription_tier, new.billing_cycle, new.plan_period_end, new.plan_cancel_at_period_end)
                is distinct from ('free'::text, null::text, null::timestamptz, false)
           else (new.subscription_tier, new.billing_cycle, new.plan_period_end, new.plan_cancel_at_period_end)
                is distinct from (old.subscription_tier, old.billing_cycle, old.plan_period_end, old.plan_cancel_at_period_end)
      end)
     and coalesce(current_setting('role', true), 'none') in ('anon', 'authenticated', 'service_role')
     and coalesce(current_setting('linkboard.tier_change', true), '') <> 'billing' then
    raise exception 'The plan changes only through billing.' using errcode = '42501', hint = 'forbidden';
  end if;
  return new;
end
$$;
revoke all on function private.guard_subscription_tier() from public, anon, authenticated, service_role;

create or replace trigger t05_guard_subscription_tier
  before insert or update of subscription_tier, billing_cycle, plan_period_end, plan_cancel_at_period_end on public.user_profiles
  for each row execute function private.guard_subscription_tier();

create or replace function public.set_subscription_tier(p_user_id uuid, p_tier text) returns text
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  if p_tier is null or p_tier not in ('free', 'pro', 'team') then
    raise exception 'Unknown subscription tier: %. Expected free, pro or team.', coalesce(p_tier, 'null')
      using errcode = '22023', hint = 'invalid';
  end if;
  if not exists (select 1 from public.user_profiles p where p.id = p_user_id) then
    raise exception 'No user with id %.', coalesce(p_user_id::text, 'null')
      using errcode = 'P0002', hint = 'not_found';
  end if;
  perform private.apply_tier(p_user_id, p_tier);
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
