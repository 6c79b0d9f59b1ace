-- Written by `npm run db:diff` from supabase/schemas: function private.sync_mutation_names.
-- Review it, then commit it with the schema change.

-- supabase/schemas/sync_registry.sql
create or replace function private.sync_mutation_names() returns text[]
language sql immutable
set search_path = ''
as $$
  select array[
    'profile.update',
    'directory.create',
    'directory.update',
    'directory.delete',
    'link.create',
    'link.update',
    'link.delete',
    'link.set_favorite',
    'member.invite',
    'member.set_role',
    'member.remove',
    'event.create',
    'event.update',
    'event.delete',
    'task.set_completed',
    'series.create',
    'series.replace',
    'series.delete',
    'occurrence.detach',
    'poll.create',
    'poll.vote'
  ]
$$;
revoke all on function private.sync_mutation_names() from public, anon, authenticated, service_role;
grant execute on function private.sync_mutation_names() to authenticated, service_role;
