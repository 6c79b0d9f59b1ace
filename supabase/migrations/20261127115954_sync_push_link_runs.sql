-- Written by `npm run db:diff` from supabase/schemas: function public.row_meta, function public.sync_push, function private.sync_any_recorded, function private.sync_push_link_run, function private.sync_record_answers.
-- Review it, then commit it with the schema change.

-- supabase/schemas/rules.sql
create or replace function public.row_meta() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  is_client boolean := current_user::text in ('anon', 'authenticated');
  col text;
  -- The rows as JSON, made once per row when a column is asked for (not once per column).
  new_json jsonb;
  old_json jsonb;
begin
  if tg_op = 'UPDATE' then
    if is_client then
      foreach col in array tg_argv loop
        continue when col = 'created_at:past';
        if col = '*' then
          raise exception 'This record cannot be changed.' using errcode = '42501', hint = 'forbidden';
        end if;
        col := pg_catalog.regexp_replace(col, '^server:', '');
        if new_json is null then
          new_json := to_jsonb(new);
          old_json := to_jsonb(old);
        end if;
        if (new_json -> col) is distinct from (old_json -> col) then
          raise exception 'The field % cannot be changed.', col using errcode = '42501', hint = 'forbidden';
        end if;
      end loop;
      new.created_at := old.created_at;
    end if;
    new.updated_at := now();
  elsif is_client then
    -- 'server:<column>': a column only the server writes (a link's preview); a client's new row
    -- leaves it empty.
    foreach col in array tg_argv loop
      continue when col not like 'server:%';
      col := pg_catalog.substr(col, 8);
      new_json := coalesce(new_json, to_jsonb(new));
      if pg_catalog.jsonb_typeof(new_json -> col) is distinct from 'null' then
        raise exception 'The field % cannot be changed.', col using errcode = '42501', hint = 'forbidden';
      end if;
    end loop;
    -- 'created_at:past' (saved_links): a creation time the client gives is kept, as an imported
    -- bookmark's ADD_DATE, when it is from 1990 on and at most a minute ahead (clock skew, clamped).
    if 'created_at:past' = any (tg_argv) and new.created_at is not null then
      if new.created_at < timestamptz '1990-01-01 00:00:00+00' or new.created_at > now() + interval '1 minute' then
        raise exception 'Invalid creation date.' using errcode = '22023', hint = 'invalid';
      end if;
      new.created_at := least(new.created_at, now());
    else
      new.created_at := now();
    end if;
    new.updated_at := now();
  end if;
  new.txid := pg_current_xact_id();
  return new;
end
$$;
revoke all on function public.row_meta() from public, anon, authenticated, service_role;
grant execute on function public.row_meta() to service_role;

-- supabase/schemas/sync_push.sql

-- Whether any of the caller's mutations `p_ids` has a recorded answer (sync_push_link_run's check).
create or replace function private.sync_any_recorded(p_ids uuid[]) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (select 1 from public.sync_mutations m where m.user_id = auth.uid() and m.mutation_id = any (p_ids))
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
