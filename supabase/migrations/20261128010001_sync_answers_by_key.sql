-- Written by `npm run db:diff` from supabase/schemas: function private.sync_any_recorded, function private.sync_purge_my_answers, function private.sync_recorded_answer.
-- Review it, then commit it with the schema change.

-- supabase/schemas/sync_helpers.sql
-- Deletes the caller's answers older than the retention (sync_push calls it: cheap, an index
-- range on (user_id, created_at)). Returns how many went. PL/pgSQL: a security definer SQL
-- function is planned again on every call.
create or replace function private.sync_purge_my_answers() returns integer
language plpgsql volatile security definer
set search_path = ''
set enable_seqscan = off
as $$
declare
  gone integer;
begin
  delete from public.sync_mutations m
  where m.user_id = auth.uid() and m.created_at < now() - private.sync_answer_retention();
  get diagnostics gone = row_count;
  return gone;
end
$$;
revoke all on function private.sync_purge_my_answers() from public, anon, authenticated, service_role;
grant execute on function private.sync_purge_my_answers() to authenticated, service_role;

-- The recorded answer of the caller's mutation, or null (PL/pgSQL: its plan is kept for the
-- session). Never a sequential scan: one planned while the table was nearly empty was kept as it
-- grew (docs/scale.md, point 7); sync_any_recorded and sync_purge_my_answers do the same.
create or replace function private.sync_recorded_answer(p_mutation_id uuid) returns jsonb
language plpgsql stable security definer
set search_path = ''
set enable_seqscan = off
as $$
begin
  return (select m.result from public.sync_mutations m
          where m.user_id = auth.uid() and m.mutation_id = p_mutation_id);
end
$$;
revoke all on function private.sync_recorded_answer(p_mutation_id uuid) from public, anon, authenticated, service_role;
grant execute on function private.sync_recorded_answer(p_mutation_id uuid) to authenticated, service_role;

-- supabase/schemas/sync_push.sql

-- Whether any of the caller's mutations `p_ids` has a recorded answer (sync_push_link_run's check).
-- PL/pgSQL: a security definer SQL function is planned again on every call. By key, as
-- sync_recorded_answer.
create or replace function private.sync_any_recorded(p_ids uuid[]) returns boolean
language plpgsql stable security definer
set search_path = ''
set enable_seqscan = off
as $$
begin
  return exists (select 1 from public.sync_mutations m where m.user_id = auth.uid() and m.mutation_id = any (p_ids));
end
$$;
revoke all on function private.sync_any_recorded(p_ids uuid[]) from public, anon, authenticated, service_role;
grant execute on function private.sync_any_recorded(p_ids uuid[]) to authenticated, service_role;
