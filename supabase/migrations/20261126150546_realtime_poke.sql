-- Written by `npm run db:diff` from supabase/schemas: function public.apply_billing_event, function public.sync_push, function private.sync_poke_send, policy realtime.messages.poke_listeners.
-- Review it, then commit it with the schema change.

-- supabase/schemas/billing.sql
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

-- supabase/schemas/sync_poke.sql

-- Broadcasts `poke` (payload {}: no data) on the private channels of every topic the current
-- user's sync_push answer concerns (sync_poke_topics: only applied results count, so a rejected
-- mutation pokes nobody). Called by sync_push before it answers, inside its transaction: a push
-- that fails as a whole sends nothing, and Realtime delivers only what commits. Security definer
-- as hosted Supabase's own examples: clients have no insert policy on realtime.messages.
create or replace function private.sync_poke_send(p_answer jsonb)
returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_topic text;
begin
  for v_topic in select t from private.sync_poke_topics(auth.uid(), p_answer) t loop
    perform realtime.send('{}'::jsonb, 'poke', v_topic, true);
  end loop;
end
$$;
revoke all on function private.sync_poke_send(p_answer jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_poke_send(p_answer jsonb) to authenticated, service_role;

-- Who may listen: a signed-in user receives the broadcasts of their own topic `user:<id>` and of
-- the voting board's `public:voting`, nothing else. Realtime runs this policy when a private
-- channel joins (and again on a new access token). No insert policy: no client may send.
drop policy if exists poke_listeners on realtime.messages;
create policy poke_listeners on realtime.messages for select to authenticated
  using (
    realtime.messages.extension = 'broadcast'
    and (realtime.topic() = 'user:' || (select auth.uid())::text or realtime.topic() = 'public:voting')
  );

-- supabase/schemas/sync_push.sql

create or replace function public.sync_push(p_mutations jsonb) returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  item jsonb;
  -- Appended in place (an expanded array) and turned into JSON once: concatenating a growing
  -- jsonb per mutation copied the answer so far every time.
  results jsonb[] := '{}';
  v_id uuid;
  v_answer jsonb;
begin
  if auth.uid() is null then
    raise exception 'Not authenticated' using errcode = '42501';
  end if;
  if jsonb_typeof(p_mutations) is distinct from 'array' then
    raise exception 'p_mutations must be an array of mutations.' using errcode = '22023';
  end if;
  if jsonb_array_length(p_mutations) > 500 then
    -- Refused whole, before anything is applied: the client sends at most 500 per push.
    raise sqlstate 'PT413' using message = 'Too many changes in one push: at most 500.',
      hint = 'Send the changes in smaller batches.';
  end if;

  perform private.sync_purge_my_answers();

  for item in select value from jsonb_array_elements(p_mutations) loop
    v_id := null;
    if jsonb_typeof(item) = 'object' and jsonb_typeof(item -> 'id') = 'string'
       and (item ->> 'id') ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
      v_id := (item ->> 'id')::uuid;
    end if;
    if v_id is null or jsonb_typeof(item -> 'name') is distinct from 'string' then
      -- Not a mutation at all: answered, but not recorded (there is no id to record it under).
      results := array_append(results, jsonb_build_object(
        'id', case when jsonb_typeof(item) = 'object' and jsonb_typeof(item -> 'id') in ('string', 'number')
                     and octet_length(item ->> 'id') <= 100 then item -> 'id' end,
        'status', 'rejected', 'code', 'invalid', 'message', 'Invalid mutation.',
        'rows', '{}'::jsonb, 'deleted', '{}'::jsonb));
      continue;
    end if;
    results := array_append(results, private.sync_push_one(v_id, item ->> 'name', coalesce(item -> 'args', '{}')));
  end loop;
  v_answer := jsonb_build_object('results', to_jsonb(results));
  -- The devices its applied changes concern pull now (Realtime, delivered once this commits).
  perform private.sync_poke_send(v_answer);
  return v_answer;
end
$$;
revoke all on function public.sync_push(p_mutations jsonb) from public, anon, authenticated, service_role;
grant execute on function public.sync_push(p_mutations jsonb) to authenticated, service_role;
