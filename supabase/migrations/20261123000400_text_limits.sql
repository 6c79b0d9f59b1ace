-- Maximum lengths of every text a client stores. The CHECK constraints of
-- ..._schema.sql already bound each column; a value over one was refused with the constraint's
-- name (23514), which sync_push answers with its generic 'Failed to save ...'. A trigger now
-- refuses it first with a readable message (22001, hint invalid), and CHECK constraints bound the
-- two lists whose items the rule triggers checked alone (a link's tags, a poll's options).
--
--   profile      full_name 200, bio 500, username 30, time_zone 64
--   directory    name 100, description 1000
--   link         url 2048, title 500, notes 10000, description 2000, tags 50 of 50 each
--   member       e-mail 320
--   event        title 500, description 5000
--   poll         title 500, description 5000, options 2 to 6 of 200 each
--   contact      name 200, e-mail 320, message 4000 (submit_contact_message)

-- Refuses a value over its maximum. TG_ARGV: (column, maximum, message) triplets; a text column
-- is measured in characters, an array column in items. Runs before the rule triggers (t05), so an
-- oversized value costs no further work.
create or replace function private.text_limits() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  row_json jsonb := to_jsonb(new);
  value jsonb;
  i integer := 0;
begin
  while i + 2 < tg_nargs loop
    value := row_json -> tg_argv[i];
    if (jsonb_typeof(value) = 'string' and char_length(value #>> '{}') > tg_argv[i + 1]::integer)
       or (jsonb_typeof(value) = 'array' and jsonb_array_length(value) > tg_argv[i + 1]::integer) then
      raise exception '%', tg_argv[i + 2] using errcode = '22001', hint = 'invalid';
    end if;
    i := i + 3;
  end loop;
  return new;
end
$$;
revoke all on function private.text_limits() from public, anon;
grant execute on function private.text_limits() to authenticated, service_role;

create trigger t05_limits before insert or update on public.user_profiles
  for each row execute function private.text_limits(
    'full_name', '200', 'The name can be at most 200 characters.',
    'bio', '500', 'The bio can be at most 500 characters.',
    'username', '30', 'A username can be at most 30 characters.',
    'time_zone', '64', 'Unknown time zone.');
create trigger t05_limits before insert or update on public.link_directories
  for each row execute function private.text_limits(
    'name', '100', 'The directory name can be at most 100 characters.',
    'description', '1000', 'The description can be at most 1000 characters.');
create trigger t05_limits before insert or update on public.saved_links
  for each row execute function private.text_limits(
    'url', '2048', 'The URL can be at most 2048 characters.',
    'title', '500', 'The title can be at most 500 characters.',
    'notes', '10000', 'The notes can be at most 10000 characters.',
    'description', '2000', 'The description can be at most 2000 characters.',
    'tags', '50', 'A link can have at most 50 tags.');
create trigger t05_limits before insert or update on public.directory_members
  for each row execute function private.text_limits(
    'user_email', '320', 'The e-mail address can be at most 320 characters.');
create trigger t05_limits before insert or update on public.calendar_events
  for each row execute function private.text_limits(
    'title', '500', 'The title can be at most 500 characters.',
    'description', '5000', 'The description can be at most 5000 characters.');
create trigger t05_limits before insert or update on public.voting_posts
  for each row execute function private.text_limits(
    'title', '500', 'The title can be at most 500 characters.',
    'description', '5000', 'The description can be at most 5000 characters.');

-- The longest item of a text list, and of a poll's option texts (0 when empty). Used by CHECK
-- constraints, which run as the writing role.
create or replace function private.longest_item(p_items text[]) returns integer
language sql immutable
set search_path = ''
as $$
  select coalesce(max(char_length(x)), 0) from unnest(p_items) x
$$;
create or replace function private.longest_option(p_options jsonb) returns integer
language sql immutable
set search_path = ''
as $$
  select coalesce(max(char_length(o ->> 'text')), 0)
  from jsonb_array_elements(case when jsonb_typeof(p_options) = 'array' then p_options else '[]' end) o
  where jsonb_typeof(o) = 'object'
$$;
revoke all on function private.longest_item(text[]), private.longest_option(jsonb) from public, anon;
grant execute on function private.longest_item(text[]), private.longest_option(jsonb) to authenticated, service_role;

alter table public.saved_links add constraint saved_links_tag_length check (private.longest_item(tags) <= 50);
alter table public.voting_posts add constraint voting_posts_option_length
  check (private.longest_option(options) <= 200);
