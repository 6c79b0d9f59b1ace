-- Written by `npm run db:diff` from supabase/schemas: function public.billing_webhook_refused.
-- Review it, then commit it with the schema change.

-- supabase/schemas/plans.sql
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
