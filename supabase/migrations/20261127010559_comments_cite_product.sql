-- Written by `npm run db:diff` from supabase/schemas: function private.sync_push_one, function public.submit_contact_message.
-- Review it, then commit it with the schema change.

-- supabase/schemas/mail.sql
create or replace function public.submit_contact_message(p_name text, p_email text, p_message text) returns uuid
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_name text := btrim(coalesce(p_name, ''));
  v_email text := lower(btrim(coalesce(p_email, '')));
  -- The message is cut to 4000 characters (the form does too).
  v_message text := left(btrim(coalesce(p_message, '')), 4000);
  v_client text := private.client_address();
  v_id uuid;
begin
  if v_name = '' or v_email = '' or v_message = '' then
    raise exception 'Name, email and message are required.' using errcode = '22023', hint = 'invalid';
  end if;
  if char_length(v_name) > 200 then
    raise exception 'The name can be at most 200 characters.' using errcode = '22001', hint = 'invalid';
  end if;
  if v_email !~ '^[^@[:space:]]+@[^@[:space:]]+$' or char_length(v_email) > 320 then
    raise exception 'Please enter a valid email address.' using errcode = '22023', hint = 'invalid';
  end if;
  perform private.throttle_all(jsonb_build_array(
    jsonb_build_object('bucket', 'contact', 'subject', v_client, 'max', 5, 'seconds', 3600),
    jsonb_build_object('bucket', 'contact_all', 'subject', '', 'max', 200, 'seconds', 3600)),
    'Too many messages. Please try again later.');
  insert into public.contact_messages (name, email, message)
  values (v_name, v_email, v_message)
  returning id into v_id;
  return v_id;
end
$$;
revoke all on function public.submit_contact_message(p_name text, p_email text, p_message text) from public, anon, authenticated, service_role;
grant execute on function public.submit_contact_message(p_name text, p_email text, p_message text) to anon, authenticated, service_role;

-- supabase/schemas/sync_push.sql

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
