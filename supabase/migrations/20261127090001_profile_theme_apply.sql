-- Written by `npm run db:diff` from supabase/schemas: function private.sync_apply_profile, function private.sync_theme.
-- Review it, then commit it with the schema change.

-- supabase/schemas/sync_apply.sql
create or replace function private.sync_apply_profile(p_name text, p_args jsonb) returns void
language plpgsql
set search_path = ''
as $$
begin
  update public.user_profiles p set
    username = case when p_args ? 'username' then private.sync_text(p_args, 'username') else p.username end,
    bio = case when p_args ? 'bio' then private.sync_text(p_args, 'bio') else p.bio end,
    full_name = case when p_args ? 'full_name' then private.sync_text(p_args, 'full_name') else p.full_name end,
    time_zone = case when p_args ? 'time_zone' then private.sync_text(p_args, 'time_zone') else p.time_zone end,
    default_reminder_minutes = case when p_args ? 'default_reminder_minutes'
                                      then private.sync_reminder(p_args, 'default_reminder_minutes')
                                    else p.default_reminder_minutes end,
    theme = case when p_args ? 'theme' then private.sync_theme(p_args) else p.theme end
  where p.id = auth.uid();
  if not found then
    raise exception 'Not authenticated' using errcode = '42501';
  end if;
end
$$;
revoke all on function private.sync_apply_profile(p_name text, p_args jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_apply_profile(p_name text, p_args jsonb) to authenticated, service_role;

-- supabase/schemas/sync_helpers.sql

-- The profile's theme: 'light', 'dark' or 'system'; anything else (null included) raises.
create or replace function private.sync_theme(p_args jsonb) returns text
language plpgsql immutable
set search_path = ''
as $$
begin
  if jsonb_typeof(p_args -> 'theme') = 'string' and (p_args ->> 'theme') in ('light', 'dark', 'system') then
    return p_args ->> 'theme';
  end if;
  raise exception 'Invalid argument: theme must be light, dark or system.' using errcode = '22023', hint = 'invalid';
end
$$;
revoke all on function private.sync_theme(p_args jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_theme(p_args jsonb) to authenticated, service_role;
