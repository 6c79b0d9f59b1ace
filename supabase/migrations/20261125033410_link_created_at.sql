-- Written by `npm run db:diff` from supabase/schemas: function private.sync_apply_link, function public.row_meta, trigger public.saved_links.t10_row_meta, function private.sync_created_at.
-- Review it, then commit it with the schema change.

-- supabase/schemas/rules.sql
create or replace function public.row_meta() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  is_client boolean := current_user::text in ('anon', 'authenticated');
  col text;
begin
  if tg_op = 'UPDATE' then
    if is_client then
      foreach col in array tg_argv loop
        continue when col = 'created_at:past';
        if col = '*' then
          raise exception 'This record cannot be changed.' using errcode = '42501', hint = 'forbidden';
        end if;
        if (to_jsonb(new) -> col) is distinct from (to_jsonb(old) -> col) then
          raise exception 'The field % cannot be changed.', col using errcode = '42501', hint = 'forbidden';
        end if;
      end loop;
      new.created_at := old.created_at;
    end if;
    new.updated_at := now();
  elsif is_client then
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

create or replace trigger t10_row_meta before insert or update on public.saved_links
  for each row execute function public.row_meta('id', 'owner_id', 'created_by', 'created_at:past');

-- supabase/schemas/sync_apply.sql

create or replace function private.sync_apply_link(p_name text, p_args jsonb) returns void
language plpgsql
set search_path = ''
as $$
declare
  v_id uuid := private.sync_uuid(p_args, 'id');
begin
  case p_name
    when 'link.create' then
      perform private.sync_insert_allowed(private.sync_uuid(p_args, 'directory_id'), false);
      -- created_at: an imported bookmark's ADD_DATE; row_meta checks its range, absent means now.
      insert into public.saved_links (id, directory_id, url, title, notes, description, tags, is_favorite,
                                      created_at)
      values (v_id, private.sync_uuid(p_args, 'directory_id'), private.sync_text(p_args, 'url'),
              private.sync_text(p_args, 'title'), private.sync_text(p_args, 'notes'),
              private.sync_text(p_args, 'description'), private.sync_text_array(p_args -> 'tags'),
              case when p_args ? 'is_favorite' then private.sync_bool(p_args, 'is_favorite') else false end,
              coalesce(private.sync_created_at(p_args), now()));
      return;
    when 'link.update' then
      update public.saved_links l set
        url = case when p_args ? 'url' then private.sync_text(p_args, 'url') else l.url end,
        title = case when p_args ? 'title' then private.sync_text(p_args, 'title') else l.title end,
        notes = case when p_args ? 'notes' then private.sync_text(p_args, 'notes') else l.notes end,
        description = case when p_args ? 'description' then private.sync_text(p_args, 'description')
                           else l.description end,
        tags = case when p_args ? 'tags' then private.sync_text_array(p_args -> 'tags') else l.tags end
      where l.id = v_id and l.deleted_at is null;
    when 'link.set_favorite' then
      update public.saved_links l set is_favorite = private.sync_bool(p_args, 'value')
      where l.id = v_id and l.deleted_at is null;
    when 'link.delete' then
      update public.saved_links l set deleted_at = now() where l.id = v_id and l.deleted_at is null;
  end case;
  if not found then
    perform private.sync_missing('saved_links', v_id, p_name = 'link.delete');
  end if;
end
$$;
revoke all on function private.sync_apply_link(p_name text, p_args jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_apply_link(p_name text, p_args jsonb) to authenticated, service_role;

-- supabase/schemas/sync_helpers.sql

-- The optional created_at argument (link.create, an imported bookmark's ADD_DATE): absent or null is
-- null; otherwise an ISO 8601 instant with its offset ('2020-01-31T12:00:00.000Z'), else refused.
create or replace function private.sync_created_at(p_args jsonb) returns timestamptz
language plpgsql stable
set search_path = ''
as $$
declare
  v_text text;
begin
  if coalesce(jsonb_typeof(p_args -> 'created_at'), 'null') = 'null' then
    return null;
  end if;
  v_text := p_args ->> 'created_at';
  if jsonb_typeof(p_args -> 'created_at') = 'string'
     and v_text ~ '^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)$' then
    begin
      return v_text::timestamptz;
    exception when others then
      null; -- month 13 and the like: refused below
    end;
  end if;
  raise exception 'Invalid creation date.' using errcode = '22023', hint = 'invalid';
end
$$;
revoke all on function private.sync_created_at(p_args jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_created_at(p_args jsonb) to authenticated, service_role;
