-- Billing: the card provider's account data for the billing functions, its signed events applied
-- by the webhook (the tier through private.apply_billing_profile, in plans.sql), and the mail
-- that follows them.
--
-- The current definitions (docs/architecture.md, "Rules written once"): edit here, then run
-- `npm run db:diff` to write the migration. Tables, columns and data changes stay in migrations.

-- What the billing functions need to know of a user (service role only): the account address, the
-- username, the tier and the provider's customer and subscription. Each purpose is throttled per
-- user (a checkout, portal, resume or status call costs a call to the card provider): checkout and
-- portal 20 an hour, status (the page back from checkout asking whether it was paid) 60.
create or replace function public.billing_account(p_user uuid, p_purpose text) returns jsonb
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_result jsonb;
begin
  if p_purpose is null or p_purpose not in ('checkout', 'portal', 'status') then
    raise exception 'Unknown purpose: %. Expected checkout, portal or status.', coalesce(p_purpose, 'null')
      using errcode = '22023', hint = 'invalid';
  end if;
  select jsonb_build_object(
           'user_id', p.id, 'email', u.email, 'username', p.username, 'tier', p.subscription_tier,
           'customer_id', c.provider_customer_id, 'subscription_id', c.subscription_id,
           'status', c.status, 'plan', c.plan, 'billing_cycle', c.billing_cycle,
           'cancel_at_period_end', coalesce(c.cancel_at_period_end, false))
  into v_result
  from public.user_profiles p
  join auth.users u on u.id = p.id
  left join public.billing_customers c on c.user_id = p.id
  where p.id = p_user and p.deleted_at is null;
  if v_result is null then
    raise exception 'No user with id %.', coalesce(p_user::text, 'null') using errcode = 'P0002', hint = 'not_found';
  end if;
  perform private.throttle_all(jsonb_build_array(
    jsonb_build_object('bucket', 'billing_' || p_purpose, 'subject', p_user::text,
                       'max', case when p_purpose = 'status' then 60 else 20 end, 'seconds', 3600)),
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
--    billing_cycle, period_end (epoch seconds), cancel_at_period_end (boolean, or null when the
--    event does not say), amount (smallest unit), currency}
-- A subscription set to cancel at the period's end keeps its tier until the provider's
-- customer.subscription.deleted says the period ended (a cancelled paid plan runs to the end of
-- the period paid for); the profile shows the end date meanwhile.
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
  v_cancel boolean;
  v_zone text;
begin
  if jsonb_typeof(p_event) is distinct from 'object' or v_id is null or v_type is null
     or char_length(v_id) > 255 or char_length(v_type) > 100
     or jsonb_typeof(p_event -> 'created') is distinct from 'number' then
    raise exception 'A billing event needs an id, a type and a created time.' using errcode = '22023', hint = 'invalid';
  end if;
  if v_plan is not null and v_plan not in ('pro', 'team') or v_cycle is not null and v_cycle not in ('monthly', 'yearly')
     or char_length(coalesce(v_customer, '')) > 255 or char_length(coalesce(v_subscription, '')) > 255
     or char_length(coalesce(v_status, '')) > 40
     or coalesce(jsonb_typeof(p_event -> 'cancel_at_period_end'), 'null') not in ('boolean', 'null') then
    raise exception 'The billing event has an unknown plan, cycle or an oversized field.' using errcode = '22023', hint = 'invalid';
  end if;
  v_cancel := (p_event ->> 'cancel_at_period_end')::boolean;
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

  -- A new checkout is a new subscription: it renews. Other events that do not say keep what was said.
  v_cancel := case when v_tier = 'free' then false
                   else coalesce(v_cancel, case when v_type = 'checkout.session.completed' then false
                                                else v_before.cancel_at_period_end end) end;
  update public.billing_customers c set
    provider_customer_id = coalesce(v_customer, c.provider_customer_id),
    subscription_id = case when v_tier = 'free' then null else coalesce(v_subscription, c.subscription_id) end,
    status = case when v_tier = 'free' then 'canceled' else coalesce(v_status, c.status) end,
    plan = v_tier,
    billing_cycle = case when v_tier = 'free' then null else coalesce(v_cycle, c.billing_cycle) end,
    current_period_end = case when v_tier = 'free' then null else coalesce(v_period_end, c.current_period_end) end,
    cancel_at_period_end = v_cancel,
    last_event_at = v_created,
    updated_at = now()
  where c.user_id = v_user
  returning c.billing_cycle, c.current_period_end into v_cycle, v_period_end;
  perform private.apply_billing_profile(v_user, v_tier, v_cycle, v_period_end, v_cancel);
  update public.billing_events set outcome = 'applied' where id = v_id;

  v_label := initcap(v_tier) || ', billed ' || coalesce(v_cycle, 'monthly');
  v_amount := private.billing_amount((p_event ->> 'amount')::bigint, p_event ->> 'currency');
  select coalesce(p.time_zone, 'UTC') into v_zone from public.user_profiles p where p.id = v_user;
  if v_type = 'checkout.session.completed' then
    perform private.queue_billing_mail(v_user,
      'Your Linkboard receipt: ' || initcap(v_tier) || ' plan',
      'Thank you for upgrading to Linkboard ' || initcap(v_tier) || '.' || E'\n\n'
        || 'Plan: ' || v_label || E'\n'
        || coalesce('Amount paid: ' || v_amount || E'\n', '')
        || coalesce('Renews on: ' || to_char(v_period_end at time zone v_zone, 'FMDD Mon YYYY') || E'\n', '')
        || 'Receipt reference: ' || v_id);
  elsif v_tier = 'free' and v_old_tier <> 'free' then
    -- The end of a plan cancelled earlier (its cancellation was mailed then), or a cancellation at once.
    perform private.queue_billing_mail(v_user,
      case when coalesce(v_before.cancel_at_period_end, false) then 'Your Linkboard plan is now Free'
           else 'Your Linkboard subscription is cancelled' end,
      'Your ' || initcap(v_old_tier) || ' subscription '
        || case when coalesce(v_before.cancel_at_period_end, false) then 'has ended' else 'is cancelled' end
        || ' and your plan is now Free. You will not be charged again.'
        || E'\n\n'
        || 'Everything you saved stays readable. Above the Free limits (1 directory, 30 links, 10 events and 5 polls a month) '
        || 'new items, recurring events, tags, favourites and Editor invites need Pro again.' || E'\n'
        || 'Reference: ' || v_id);
  elsif v_tier <> 'free' and v_cancel and not coalesce(v_before.cancel_at_period_end, false) then
    perform private.queue_billing_mail(v_user,
      'Your Linkboard subscription is cancelled',
      'Your ' || initcap(v_tier) || ' subscription is cancelled. You will not be charged again.' || E'\n\n'
        || coalesce('Your ' || initcap(v_tier) || ' plan stays active until '
                    || to_char(v_period_end at time zone v_zone, 'FMDD Mon YYYY') || ', the end of the period you paid for. ', '')
        || 'Then your plan goes back to Free, and everything you saved stays readable.' || E'\n'
        || 'Changed your mind? Resume your plan from your profile before then.' || E'\n'
        || 'Reference: ' || v_id);
  elsif v_tier <> 'free' and not v_cancel and coalesce(v_before.cancel_at_period_end, false) then
    perform private.queue_billing_mail(v_user,
      'Your Linkboard subscription is resumed',
      'Your ' || initcap(v_tier) || ' plan continues'
        || coalesce(' and renews on ' || to_char(v_period_end at time zone v_zone, 'FMDD Mon YYYY'), '') || '.' || E'\n'
        || 'Reference: ' || v_id);
  elsif v_tier <> 'free' and v_old_tier <> 'free'
        and (v_tier is distinct from v_before.plan or coalesce(v_cycle, v_before.billing_cycle) is distinct from v_before.billing_cycle) then
    perform private.queue_billing_mail(v_user,
      'Your Linkboard plan has changed',
      'Your plan is now ' || v_label || '.' || E'\n'
        || coalesce('Price: ' || v_amount || E'\n', '')
        || 'Reference: ' || v_id);
  end if;
  -- The user's devices pull the new plan now (Realtime, delivered once this commits).
  perform realtime.send('{}'::jsonb, 'poke', 'user:' || v_user::text, true);
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
