-- Written by `npm run db:diff` from supabase/schemas: function private.sync_synced_tables.
-- Review it, then commit it with the schema change.

-- supabase/schemas/sync_registry.sql
create or replace function private.sync_synced_tables() returns text[]
language sql immutable
set search_path = ''
as $$
  select array[
    'user_profiles',
    'link_directories',
    'saved_links',
    'directory_members',
    'calendar_events',
    'voting_posts',
    'user_votes'
  ]
$$;
revoke all on function private.sync_synced_tables() from public, anon, authenticated, service_role;
grant execute on function private.sync_synced_tables() to authenticated, service_role;
