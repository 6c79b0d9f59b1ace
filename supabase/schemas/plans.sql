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

-- Refuses any change of subscription_tier (and any new profile on a paid tier) made on behalf of an
-- API role (anon, authenticated, service_role: the SET ROLE of the request, which a definer
-- function does not change) unless private.apply_tier made it. Database owners and migrations
-- (no API role) are not API callers and pass.
create or replace function private.guard_subscription_tier() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_before text := case when tg_op = 'INSERT' then 'free' else old.subscription_tier end;
begin
  if new.subscription_tier is distinct from v_before
     and coalesce(current_setting('role', true), 'none') in ('anon', 'authenticated', 'service_role')
     and coalesce(current_setting('linkboard.tier_change', true), '') <> 'billing' then
    raise exception 'The plan changes only through billing.' using errcode = '42501', hint = 'forbidden';
  end if;
  return new;
end
$$;
revoke all on function private.guard_subscription_tier() from public, anon, authenticated, service_role;

create or replace trigger t05_guard_subscription_tier before insert or update of subscription_tier on public.user_profiles
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

-- What create-checkout and billing-portal need to know of a user (service role only): the account
-- address, the username, the tier and the provider's customer and subscription. Each purpose is
-- throttled per user (a checkout or portal session costs a call to the card provider).
create or replace function public.billing_account(p_user uuid, p_purpose text) returns jsonb
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_result jsonb;
begin
  if p_purpose is null or p_purpose not in ('checkout', 'portal') then
    raise exception 'Unknown purpose: %. Expected checkout or portal.', coalesce(p_purpose, 'null')
      using errcode = '22023', hint = 'invalid';
  end if;
  select jsonb_build_object(
           'user_id', p.id, 'email', u.email, 'username', p.username, 'tier', p.subscription_tier,
           'customer_id', c.provider_customer_id, 'subscription_id', c.subscription_id,
           'status', c.status, 'plan', c.plan, 'billing_cycle', c.billing_cycle)
  into v_result
  from public.user_profiles p
  join auth.users u on u.id = p.id
  left join public.billing_customers c on c.user_id = p.id
  where p.id = p_user and p.deleted_at is null;
  if v_result is null then
    raise exception 'No user with id %.', coalesce(p_user::text, 'null') using errcode = 'P0002', hint = 'not_found';
  end if;
  perform private.throttle_all(jsonb_build_array(
    jsonb_build_object('bucket', 'billing_' || p_purpose, 'subject', p_user::text, 'max', 20, 'seconds', 3600)),
    'Too many attempts. Please try again later.');
  return v_result;
end
$$;
revoke all on function public.billing_account(p_user uuid, p_purpose text) from public, anon, authenticated, service_role;
grant execute on function public.billing_account(p_user uuid, p_purpose text) to service_role;

-- An amount in the smallest unit as a receipt writes it: '$50.00', 'EUR 9.99'.
create or replace function private.billing_amount(p_amount bigint, p_currency text) returns text
language sql immutable
set search_path = ''
as $$
  select case when p_amount is null then null
              else case when lower(coalesce(p_currency, 'usd')) = 'usd' then '$' else upper(p_currency) || ' ' end
                   || to_char(p_amount / 100.0, 'FM999999990.00') end
$$;
revoke all on function private.billing_amount(p_amount bigint, p_currency text) from public, anon, authenticated, service_role;

-- Queues a billing mail (a receipt, a plan change, a cancellation) to the account's address: the
-- address the card provider's customer was created with. Not throttled: billing events are signed
-- by the provider and each is applied once.
create or replace function private.queue_billing_mail(p_user uuid, p_subject text, p_body text) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_to text;
begin
  select u.email into v_to from auth.users u where u.id = p_user;
  if v_to is null then
    return;
  end if;
  insert into public.outgoing_mail (to_address, subject, body, sender_id)
  values (v_to, p_subject, p_body || E'\n\n' || 'Manage or cancel your plan any time from your profile: '
                              || coalesce(rtrim(private.setting('site_url'), '/'), '') || '/Profile', null);
end
$$;
revoke all on function private.queue_billing_mail(p_user uuid, p_subject text, p_body text) from public, anon, authenticated, service_role;

-- Applies one verified event of the card provider (called by the billing-webhook function after it
-- checked the signature; service role only). p_event is the function's normalised reading:
--   {id, type, created (epoch seconds), user_id, customer_id, subscription_id, status, plan,
--    billing_cycle, period_end (epoch seconds), amount (smallest unit), currency}
-- Answers {outcome, tier}: 'applied'; 'duplicate' (this event id was seen: nothing changes, nothing
-- is mailed); 'stale' (older than the newest event applied to the customer); 'ignored' (an event
-- type, status or price that changes nothing, or no known user). The event, the customer row, the
-- tier and the receipt are written in one transaction.
create or replace function public.apply_billing_event(p_event jsonb) returns jsonb
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_id text := p_event ->> 'id';
  v_type text := p_event ->> 'type';
  v_created timestamptz;
  v_period_end timestamptz;
  v_user uuid;
  v_by_customer uuid;
  v_customer text := nullif(p_event ->> 'customer_id', '');
  v_subscription text := nullif(p_event ->> 'subscription_id', '');
  v_status text := p_event ->> 'status';
  v_plan text := p_event ->> 'plan';
  v_cycle text := p_event ->> 'billing_cycle';
  v_amount text;
  v_before public.billing_customers;
  v_old_tier text;
  v_tier text;
  v_label text;
begin
  if jsonb_typeof(p_event) is distinct from 'object' or v_id is null or v_type is null
     or char_length(v_id) > 255 or char_length(v_type) > 100
     or jsonb_typeof(p_event -> 'created') is distinct from 'number' then
    raise exception 'A billing event needs an id, a type and a created time.' using errcode = '22023', hint = 'invalid';
  end if;
  if v_plan is not null and v_plan not in ('pro', 'team') or v_cycle is not null and v_cycle not in ('monthly', 'yearly')
     or char_length(coalesce(v_customer, '')) > 255 or char_length(coalesce(v_subscription, '')) > 255
     or char_length(coalesce(v_status, '')) > 40 then
    raise exception 'The billing event has an unknown plan, cycle or an oversized field.' using errcode = '22023', hint = 'invalid';
  end if;
  v_created := to_timestamp((p_event ->> 'created')::double precision);
  if jsonb_typeof(p_event -> 'period_end') = 'number' then
    v_period_end := to_timestamp((p_event ->> 'period_end')::double precision);
  end if;

  insert into public.billing_events (id, type, created_at) values (v_id, v_type, v_created)
  on conflict (id) do nothing;
  if not found then
    return jsonb_build_object('outcome', 'duplicate');
  end if;

  if (p_event ->> 'user_id') ~ '^[0-9a-fA-F-]{36}$' then
    select p.id into v_user from public.user_profiles p where p.id = (p_event ->> 'user_id')::uuid;
  end if;
  if v_customer is not null then
    select c.user_id into v_by_customer from public.billing_customers c where c.provider_customer_id = v_customer;
  end if;
  if v_by_customer is not null and v_user is not null and v_by_customer <> v_user then
    update public.billing_events set outcome = 'conflict' where id = v_id;
    return jsonb_build_object('outcome', 'ignored');
  end if;
  v_user := coalesce(v_by_customer, v_user);
  if v_user is null then
    update public.billing_events set outcome = 'unknown_user' where id = v_id;
    return jsonb_build_object('outcome', 'ignored');
  end if;
  update public.billing_events set user_id = v_user where id = v_id;

  insert into public.billing_customers (user_id) values (v_user) on conflict (user_id) do nothing;
  select * into v_before from public.billing_customers c where c.user_id = v_user for update;
  v_old_tier := public.tier_of(v_user);
  if v_before.last_event_at is not null and v_created < v_before.last_event_at then
    update public.billing_events set outcome = 'stale' where id = v_id;
    return jsonb_build_object('outcome', 'stale', 'tier', v_old_tier);
  end if;

  -- The tier this event asks for; null changes nothing.
  v_tier := case
    when v_type = 'customer.subscription.deleted' then 'free'
    when v_type = 'checkout.session.completed' then case when v_status = 'active' then v_plan end
    when v_type in ('customer.subscription.created', 'customer.subscription.updated') then
      case when v_status in ('active', 'trialing', 'past_due') then v_plan
           when v_status in ('canceled', 'unpaid', 'incomplete_expired', 'paused') then 'free' end
  end;
  if v_tier is null then
    update public.billing_events set outcome = 'ignored' where id = v_id;
    return jsonb_build_object('outcome', 'ignored', 'tier', v_old_tier);
  end if;

  update public.billing_customers c set
    provider_customer_id = coalesce(v_customer, c.provider_customer_id),
    subscription_id = case when v_tier = 'free' then null else coalesce(v_subscription, c.subscription_id) end,
    status = case when v_tier = 'free' then 'canceled' else coalesce(v_status, c.status) end,
    plan = v_tier,
    billing_cycle = case when v_tier = 'free' then null else coalesce(v_cycle, c.billing_cycle) end,
    current_period_end = case when v_tier = 'free' then null else coalesce(v_period_end, c.current_period_end) end,
    last_event_at = v_created,
    updated_at = now()
  where c.user_id = v_user;
  perform private.apply_tier(v_user, v_tier);
  update public.billing_events set outcome = 'applied' where id = v_id;

  v_label := initcap(v_tier) || ', billed ' || coalesce(v_cycle, 'monthly');
  v_amount := private.billing_amount((p_event ->> 'amount')::bigint, p_event ->> 'currency');
  if v_type = 'checkout.session.completed' then
    perform private.queue_billing_mail(v_user,
      'Your Linkboard receipt: ' || initcap(v_tier) || ' plan',
      'Thank you for upgrading to Linkboard ' || initcap(v_tier) || '.' || E'\n\n'
        || 'Plan: ' || v_label || E'\n'
        || coalesce('Amount paid: ' || v_amount || E'\n', '')
        || coalesce('Renews on: ' || to_char(v_period_end at time zone 'UTC', 'FMDD Mon YYYY') || E'\n', '')
        || 'Receipt reference: ' || v_id);
  elsif v_tier = 'free' and v_old_tier <> 'free' then
    perform private.queue_billing_mail(v_user,
      'Your Linkboard subscription is cancelled',
      'Your ' || initcap(v_old_tier) || ' subscription is cancelled and your plan is now Free. You will not be charged again.'
        || E'\n\n'
        || 'Everything you saved stays readable. Above the Free limits (1 directory, 30 links, 10 events and 5 polls a month) '
        || 'new items, recurring events, tags, favourites and Editor invites need Pro again.' || E'\n'
        || 'Reference: ' || v_id);
  elsif v_tier <> 'free' and v_old_tier <> 'free'
        and (v_tier is distinct from v_before.plan or coalesce(v_cycle, v_before.billing_cycle) is distinct from v_before.billing_cycle) then
    perform private.queue_billing_mail(v_user,
      'Your Linkboard plan has changed',
      'Your plan is now ' || v_label || '.' || E'\n'
        || coalesce('Price: ' || v_amount || E'\n', '')
        || 'Reference: ' || v_id);
  end if;
  return jsonb_build_object('outcome', 'applied', 'tier', v_tier, 'user_id', v_user);
end
$$;
revoke all on function public.apply_billing_event(p_event jsonb) from public, anon, authenticated, service_role;
grant execute on function public.apply_billing_event(p_event jsonb) to service_role;

-- Counts a webhook call refused for its signature, per client address (service role only): at most
-- 30 in 10 minutes, beyond which the function answers 429 without checking more. The provider's
-- own deliveries are signed and never counted.
create or replace function public.billing_webhook_refused(p_client text) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  perform private.throttle_all(jsonb_build_array(
    jsonb_build_object('bucket', 'billing_webhook_refused', 'subject', left(coalesce(p_client, 'unknown'), 100),
                       'max', 30, 'seconds', 600)),
    'Too many refused events. Please try again later.');
end
$$;
revoke all on function public.billing_webhook_refused(p_client text) from public, anon, authenticated, service_role;
grant execute on function public.billing_webhook_refused(p_client text) to service_role;
