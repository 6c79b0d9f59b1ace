-- Written by `npm run db:diff` from supabase/schemas: function public.apply_billing_event.
-- Review it, then commit it with the schema change.

-- supabase/schemas/plans.sql
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
