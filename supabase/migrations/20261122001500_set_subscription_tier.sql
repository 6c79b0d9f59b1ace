-- The one way a subscription tier changes (design section 4, decision 7): the billing webhook,
-- which runs with the service role, calls set_subscription_tier. No client role may execute it;
-- user_profiles.subscription_tier stays a protected column for them (row_meta).
-- SECURITY DEFINER so the update runs as the owner, past RLS and the protected-column guard.

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

revoke all on function public.set_subscription_tier(uuid, text) from public, anon, authenticated;
grant execute on function public.set_subscription_tier(uuid, text) to service_role;
