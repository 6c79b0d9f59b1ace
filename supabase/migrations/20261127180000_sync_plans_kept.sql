-- Written by `npm run db:diff` from supabase/schemas: function private.confirmed_email, function private.sync_any_recorded, function private.sync_directory_owners, function private.sync_poke_touched.
-- Review it, then commit it with the schema change.

-- supabase/schemas/accounts.sql
-- The caller's e-mail address, lower-cased, only once it is confirmed (never the JWT's claim,
-- which names an unconfirmed address right after sign-up). Directory memberships bind to it.
-- PL/pgSQL: the policies and sync functions ask it about 16 times a push and pull, and a security
-- definer SQL function is planned again on every call where PL/pgSQL keeps its plan.
create or replace function private.confirmed_email() returns text
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (select lower(u.email) from auth.users u where u.id = auth.uid() and u.email_confirmed_at is not null);
end
$$;
revoke all on function private.confirmed_email() from public, anon, authenticated, service_role;
grant execute on function private.confirmed_email() to authenticated, service_role;

-- supabase/schemas/sync_helpers.sql

-- The owner's plan of each directory of `p_directories` the caller owns or is a live member of.
-- PL/pgSQL: a push's answer and every pulled page ask it, and a security definer SQL function is
-- planned again on every call (0.7 ms a call under the load run).
create or replace function private.sync_directory_owners(p_directories uuid[])
returns table (directory_id uuid, owner_tier text, owner_txid xid8)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_email text := private.confirmed_email();
begin
  return query
  select d.id, p.subscription_tier, p.txid
  from public.link_directories d
  join public.user_profiles p on p.id = d.owner_id
  where d.id = any (p_directories)
    and (d.owner_id = v_uid
         or exists (select 1 from public.directory_members m
                    where m.directory_id = d.id and m.deleted_at is null and m.user_email = v_email));
end
$$;
revoke all on function private.sync_directory_owners(p_directories uuid[]) from public, anon, authenticated, service_role;
grant execute on function private.sync_directory_owners(p_directories uuid[]) to authenticated, service_role;

-- supabase/schemas/sync_poke.sql

-- The rows the applied results of a sync_push answer touched: their `rows` and `deleted` ids, by
-- table. A rejected result touched nothing. PL/pgSQL: every push calls it twice, and an SQL
-- function with its own search_path is planned again on every call (1 ms a call under the load run).
create or replace function private.sync_poke_touched(p_answer jsonb)
returns table (tbl text, id uuid)
language plpgsql immutable
set search_path = ''
as $$
begin
  return query
  with applied as (
    select r
    from jsonb_array_elements(
      case when jsonb_typeof(p_answer -> 'results') = 'array' then p_answer -> 'results' else '[]'::jsonb end) r
    where r ->> 'status' = 'applied'
  )
  select t.key, (e.value ->> 'id')::uuid
  from applied a
  cross join lateral jsonb_each(case when jsonb_typeof(a.r -> 'rows') = 'object' then a.r -> 'rows' else '{}'::jsonb end) t
  cross join lateral jsonb_array_elements(case when jsonb_typeof(t.value) = 'array' then t.value else '[]'::jsonb end) e
  union
  select t.key, (e.value #>> '{}')::uuid
  from applied a
  cross join lateral jsonb_each(case when jsonb_typeof(a.r -> 'deleted') = 'object' then a.r -> 'deleted' else '{}'::jsonb end) t
  cross join lateral jsonb_array_elements(case when jsonb_typeof(t.value) = 'array' then t.value else '[]'::jsonb end) e;
end
$$;
revoke all on function private.sync_poke_touched(p_answer jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_poke_touched(p_answer jsonb) to service_role;

-- supabase/schemas/sync_push.sql

-- Whether any of the caller's mutations `p_ids` has a recorded answer (sync_push_link_run's check).
-- PL/pgSQL: a security definer SQL function is planned again on every call.
create or replace function private.sync_any_recorded(p_ids uuid[]) returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return exists (select 1 from public.sync_mutations m where m.user_id = auth.uid() and m.mutation_id = any (p_ids));
end
$$;
revoke all on function private.sync_any_recorded(p_ids uuid[]) from public, anon, authenticated, service_role;
grant execute on function private.sync_any_recorded(p_ids uuid[]) to authenticated, service_role;
