-- Written by `npm run db:diff` from supabase/schemas: function public.link_preview_allowance.
-- Review it, then commit it with the schema change.

-- supabase/schemas/link_previews.sql
-- Counts one preview for a user and one fetch from a host (service role only: the function calls it
-- for the signed-in caller, before it fetches the page): at most 100 previews an hour per user, and
-- 20 fetches a minute from one host across all users, so no user can make the server a scanner and no
-- site is hammered by an import. The host is the URL's host name, lower-cased, without the root's
-- trailing dot. Beyond either limit: 429 with Retry-After, and nothing is counted.
create or replace function public.link_preview_allowance(p_user uuid, p_host text) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_host text := pg_catalog.lower(pg_catalog.rtrim(pg_catalog.btrim(coalesce(p_host, '')), '.'));
begin
  if p_user is null or v_host = '' or pg_catalog.char_length(v_host) > 253 then
    raise exception 'A user and a host name (at most 253 characters) are required.'
      using errcode = '22023', hint = 'invalid';
  end if;
  perform private.throttle_all(jsonb_build_array(
    jsonb_build_object('bucket', 'link_preview_user', 'subject', p_user::text, 'max', 100, 'seconds', 3600),
    jsonb_build_object('bucket', 'link_preview_host', 'subject', v_host, 'max', 20, 'seconds', 60)),
    'Too many link previews. Please try again later.');
end
$$;
revoke all on function public.link_preview_allowance(p_user uuid, p_host text) from public, anon, authenticated, service_role;
grant execute on function public.link_preview_allowance(p_user uuid, p_host text) to service_role;
