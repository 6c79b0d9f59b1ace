-- Sync push: the envelope, and one mutation in its own savepoint, recorded once.
--
-- The current definitions (docs/architecture.md, "Rules written once"): edit here, then run
-- `npm run db:diff` to write the migration. Tables, columns and data changes stay in migrations.

-- One mutation's answer: the recorded one on a replay, else applied or rejected (and recorded).
create or replace function private.sync_push_one(p_id uuid, p_name text, p_args jsonb) returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  answer jsonb := private.sync_recorded_answer(p_id);
  touched jsonb;
  v_state text;
  v_message text;
  v_hint text;
  v_table text;
  v_code text;
begin
  if answer is not null then
    return answer;
  end if;

  begin
    touched := private.sync_touched(p_name, p_args);
  exception when others then
    touched := '{}';
  end;

  begin
    if not (p_name = any (private.sync_mutation_names())) then
      raise exception 'Unknown mutation.' using errcode = '22023';
    end if;
    if jsonb_typeof(p_args) is distinct from 'object' then
      raise exception 'The arguments must be an object.' using errcode = '22023';
    end if;
    perform private.sync_apply(p_name, p_args);
    answer := jsonb_build_object('id', p_id, 'status', 'applied') || private.sync_canonical(touched);
    if not private.sync_record_answer(p_id, answer) then
      -- A concurrent push of the same mutation recorded first: undo ours, answer with theirs.
      raise exception 'replayed' using errcode = 'LBS01';
    end if;
    return answer;
  exception when others then
    get stacked diagnostics v_state = returned_sqlstate, v_message = message_text, v_hint = pg_exception_hint,
                            v_table = table_name;
    if v_state = 'LBS01' then
      return private.sync_recorded_answer(p_id);
    end if;
    v_code := private.sync_error_code(v_state, v_hint, v_table);
    if v_code is null then
      raise;
    end if;
  end;

  if v_hint is distinct from v_code or (p_name = 'profile.update' and v_code = 'conflict') then
    -- No wording of the rule's own (a constraint, RLS, a cast): the product's message for the action (docs/product.md).
    v_message := case when v_code = 'already_voted' then 'You have already voted on this poll.'
                      else private.sync_fallback_message(p_name) end;
  end if;
  answer := jsonb_build_object('id', p_id, 'status', 'rejected', 'code', v_code, 'message', left(v_message, 500))
            || private.sync_canonical(touched);
  if not private.sync_record_answer(p_id, answer) then
    answer := private.sync_recorded_answer(p_id);
  end if;
  return answer;
end
$$;
revoke all on function private.sync_push_one(p_id uuid, p_name text, p_args jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_push_one(p_id uuid, p_name text, p_args jsonb) to authenticated, service_role;

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
  -- The server's clock as the answer leaves (epoch ms), as sync_pull's.
  return v_answer || jsonb_build_object('server_time_ms', floor(extract(epoch from clock_timestamp()) * 1000)::bigint);
end
$$;
revoke all on function public.sync_push(p_mutations jsonb) from public, anon, authenticated, service_role;
grant execute on function public.sync_push(p_mutations jsonb) to authenticated, service_role;
