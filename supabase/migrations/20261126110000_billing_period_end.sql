-- A cancelled paid plan runs to the end of the period paid for (docs/architecture.md, Plans and
-- billing): the provider's subscription says whether it cancels at the period's end, and the
-- tier changes only with the provider's event that the period ended.
alter table public.billing_customers add column cancel_at_period_end boolean not null default false;

-- What the user's devices show of their subscription, synced with the profile row: the cycle
-- billed (the Upgrade page opens on it), when the paid period ends, and whether the plan ends
-- then instead of renewing. Written only by the billing path (private.apply_billing_profile).
alter table public.user_profiles
  add column billing_cycle text check (billing_cycle is null or billing_cycle in ('monthly', 'yearly')),
  add column plan_period_end timestamptz,
  add column plan_cancel_at_period_end boolean not null default false;

-- Subscribers billed before: their profile learns the cycle and the period end the billing state
-- already holds (a migration runs without an API role, so the tier guard lets it through).
update public.user_profiles p
set billing_cycle = c.billing_cycle, plan_period_end = c.current_period_end
from public.billing_customers c
where c.user_id = p.id and c.plan in ('pro', 'team') and p.subscription_tier <> 'free'
  and (c.billing_cycle is not null or c.current_period_end is not null);
