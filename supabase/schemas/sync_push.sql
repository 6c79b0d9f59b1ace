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

-- Records the caller's answers of a run (sync_record_answer for many); returns how many were new.
create or replace function private.sync_record_answers(p_ids uuid[], p_answers jsonb[]) returns integer
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  recorded integer;
begin
  if uid is null then
    raise exception 'Not authenticated' using errcode = '42501';
  end if;
  insert into public.sync_mutations (user_id, mutation_id, result)
  select uid, r.id, r.answer from unnest(p_ids, p_answers) r(id, answer)
  on conflict do nothing;
  get diagnostics recorded = row_count;
  return recorded;
end
$$;
revoke all on function private.sync_record_answers(p_ids uuid[], p_answers jsonb[]) from public, anon, authenticated, service_role;
grant execute on function private.sync_record_answers(p_ids uuid[], p_answers jsonb[]) to authenticated, service_role;

-- A run of new links (an import, a queue saved offline) applied as one insert: answers the same as
-- sync_push_one would give each, in order, or null when the run must go one mutation at a time (a
-- replay, a refusal, anything unusual: nothing of it is left written). The row triggers and RLS
-- still check every row; what goes is the per-mutation work around them (a savepoint, the
-- dispatch, a read of the row and a record per mutation).
create or replace function private.sync_push_link_run(p_items jsonb) returns jsonb[]
language plpgsql
set search_path = ''
as $$
declare
  v_ids uuid[];
  v_links uuid[];
  v_answers jsonb[];
  v_dir uuid;
begin
  begin
    select array_agg((t.item ->> 'id')::uuid order by t.n),
           array_agg(private.sync_uuid(t.item -> 'args', 'id') order by t.n)
    into v_ids, v_links
    from jsonb_array_elements(p_items) with ordinality t(item, n);
    if private.sync_any_recorded(v_ids) then
      return null;
    end if;
    for v_dir in select distinct private.sync_uuid(t.item -> 'args', 'directory_id')
                 from jsonb_array_elements(p_items) t(item) loop
      perform private.sync_insert_allowed(v_dir, false);
    end loop;
    -- As sync_apply_link's link.create, for every row at once.
    insert into public.saved_links (id, directory_id, url, title, notes, description, tags, is_favorite, created_at)
    select private.sync_uuid(a.args, 'id'), private.sync_uuid(a.args, 'directory_id'), private.sync_text(a.args, 'url'),
           private.sync_text(a.args, 'title'), private.sync_text(a.args, 'notes'),
           private.sync_text(a.args, 'description'), private.sync_text_array(a.args -> 'tags'),
           case when a.args ? 'is_favorite' then private.sync_bool(a.args, 'is_favorite') else false end,
           coalesce(private.sync_created_at(a.args), now())
    from jsonb_array_elements(p_items) with ordinality t(item, n)
    cross join lateral (select t.item -> 'args' as args) a
    order by t.n;
    -- Each answer as sync_canonical gives it for the one link the mutation touched.
    select array_agg(jsonb_build_object('id', m.id, 'status', 'applied',
                                        'rows', jsonb_build_object('saved_links', jsonb_build_array(to_jsonb(l))),
                                        'deleted', jsonb_build_object('saved_links', '[]'::jsonb))
                     order by m.n)
    into v_answers
    from unnest(v_ids, v_links) with ordinality m(id, link, n)
    join public.saved_links l on l.id = m.link and l.deleted_at is null;
    if cardinality(v_answers) is distinct from cardinality(v_ids) then
      raise exception 'run' using errcode = 'LBS02';
    end if;
    if private.sync_record_answers(v_ids, v_answers) <> cardinality(v_ids) then
      -- Another push recorded one of them first, or an id came twice: one at a time.
      raise exception 'run' using errcode = 'LBS02';
    end if;
    return v_answers;
  exception when others then
    return null;
  end;
end
$$;
revoke all on function private.sync_push_link_run(p_items jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_push_link_run(p_items jsonb) to authenticated, service_role;

create or replace function public.sync_push(p_mutations jsonb) returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  item jsonb;
  items jsonb[];
  -- Appended in place (an expanded array) and turned into JSON once: concatenating a growing
  -- jsonb per mutation copied the answer so far every time.
  results jsonb[] := '{}';
  v_run jsonb[];
  v_id uuid;
  v_answer jsonb;
  i integer := 1;
  j integer;
  -- Mutations before this one go one at a time (their run was tried and could not go whole).
  single_until integer := 0;
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

  items := array(select value from jsonb_array_elements(p_mutations));
  while i <= coalesce(cardinality(items), 0) loop
    if i >= single_until then
      -- Consecutive new links go together (sync_push_link_run), in the order sent.
      j := i;
      while j <= cardinality(items)
            and jsonb_typeof(items[j]) = 'object' and items[j] ->> 'name' = 'link.create'
            and jsonb_typeof(items[j] -> 'id') = 'string'
            and (items[j] ->> 'id') ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
            and jsonb_typeof(items[j] -> 'args') = 'object' loop
        j := j + 1;
      end loop;
      if j - i >= 2 then
        v_run := private.sync_push_link_run(to_jsonb(items[i:j - 1]));
        if v_run is not null then
          results := results || v_run;
          i := j;
          continue;
        end if;
        single_until := j;
      end if;
    end if;
    item := items[i];
    i := i + 1;
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
