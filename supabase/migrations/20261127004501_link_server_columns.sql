-- Written by `npm run db:diff` from supabase/schemas: function public.row_meta, trigger public.saved_links.t10_row_meta.
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
        col := pg_catalog.regexp_replace(col, '^server:', '');
        if (to_jsonb(new) -> col) is distinct from (to_jsonb(old) -> col) then
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
      if pg_catalog.jsonb_typeof(to_jsonb(new) -> col) is distinct from 'null' then
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

create or replace trigger t10_row_meta before insert or update on public.saved_links
  for each row execute function public.row_meta('id', 'owner_id', 'created_by', 'created_at:past',
    'server:site_name', 'server:icon_url', 'server:image_url', 'server:preview_state', 'server:previewed_at',
    'server:broken_at');
