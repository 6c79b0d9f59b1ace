-- Written by `npm run db:diff` from supabase/schemas: function public.get_my_profile.
-- Review it, then commit it with the schema change.

-- supabase/schemas/accounts.sql
create or replace function public.get_my_profile() returns json
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_profile json;
begin
  if auth.uid() is null then
    raise exception 'Not authenticated' using errcode = '28000', hint = 'forbidden';
  end if;
  select json_build_object('id', p.id, 'email', p.email, 'username', p.username, 'full_name', p.full_name,
                           'bio', p.bio, 'subscription_tier', p.subscription_tier, 'time_zone', p.time_zone,
                           'updated_at', p.updated_at)
  into v_profile
  from public.user_profiles p where p.id = auth.uid();
  if not found then
    raise exception 'Not authenticated' using errcode = '28000', hint = 'forbidden';
  end if;
  return v_profile;
end
$$;
revoke all on function public.get_my_profile() from public, anon, authenticated, service_role;
grant execute on function public.get_my_profile() to anon, authenticated, service_role;
