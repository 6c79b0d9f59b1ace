-- Accounts: the profile made at sign-up, e-mail kept in sync, and the account RPCs.

create or replace function public.sanitize_username(p_value text) returns text
language sql immutable
set search_path = ''
as $$
  select left(regexp_replace(lower(coalesce(p_value, '')), '[^a-z0-9_-]', '', 'g'), 30)
$$;

create or replace function public.handle_new_user() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  candidate text;
  chosen text;
  full_name text := left(btrim(coalesce(new.raw_user_meta_data ->> 'full_name', '')), 200);
begin
  foreach candidate in array array[new.raw_user_meta_data ->> 'username', split_part(coalesce(new.email, ''), '@', 1)] loop
    candidate := public.sanitize_username(candidate);
    if char_length(candidate) >= 3
       and not exists (select 1 from public.user_profiles p where lower(p.username) = candidate) then
      chosen := candidate;
      exit;
    end if;
  end loop;
  begin
    insert into public.user_profiles (id, email, username, full_name) values (new.id, new.email, chosen, full_name);
  exception when unique_violation then
    -- Taken by a concurrent sign-up: the account still gets its profile, without a username.
    insert into public.user_profiles (id, email, username, full_name) values (new.id, new.email, null, full_name);
  end;
  return null;
end
$$;
create trigger on_auth_user_created after insert on auth.users
  for each row execute function public.handle_new_user();

create or replace function public.handle_user_email_change() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  update public.user_profiles set email = new.email where id = new.id;
  return null;
end
$$;
create trigger on_auth_user_email_changed after update of email on auth.users
  for each row when (old.email is distinct from new.email)
  execute function public.handle_user_email_change();

revoke all on function public.sanitize_username(text), public.handle_new_user(), public.handle_user_email_change()
  from public, anon, authenticated;

-- ---------------------------------------------------------------------------
-- RPCs
-- ---------------------------------------------------------------------------

-- True when the name is valid and free (case-insensitive); the caller's own name counts as free.
create or replace function public.username_available(p_username text) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select coalesce(lower(btrim(p_username)) ~ '^[a-z0-9_-]{3,30}$', false)
     and not exists (
       select 1 from public.user_profiles p
       where lower(p.username) = lower(btrim(p_username)) and p.id is distinct from auth.uid()
     )
$$;

create or replace function public.get_my_profile() returns json
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if auth.uid() is null then
    raise exception 'Not authenticated' using errcode = '28000', hint = 'forbidden';
  end if;
  return (
    select json_build_object('id', p.id, 'email', p.email, 'username', p.username, 'full_name', p.full_name,
                             'bio', p.bio, 'subscription_tier', p.subscription_tier, 'time_zone', p.time_zone)
    from public.user_profiles p where p.id = auth.uid()
  );
end
$$;

create or replace function public.claim_username(p_username text) returns json
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  wanted text := lower(btrim(coalesce(p_username, '')));
begin
  if auth.uid() is null then
    raise exception 'Not authenticated' using errcode = '28000', hint = 'forbidden';
  end if;
  if wanted !~ '^[a-z0-9_-]{3,30}$' then
    raise exception 'Please choose a username (min 3 chars).' using errcode = '22023', hint = 'invalid';
  end if;
  begin
    update public.user_profiles set username = wanted where id = auth.uid();
  exception when unique_violation then
    raise exception 'Username taken, try another.' using errcode = '23505', hint = 'conflict';
  end;
  return public.get_my_profile();
end
$$;

-- Updates the caller's profile; a null argument leaves that field unchanged.
create or replace function public.update_my_profile(
  p_username text default null, p_full_name text default null, p_bio text default null, p_time_zone text default null
) returns json
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  if auth.uid() is null then
    raise exception 'Not authenticated' using errcode = '28000', hint = 'forbidden';
  end if;
  if p_username is not null then
    perform public.claim_username(p_username);
  end if;
  update public.user_profiles p set
    full_name = coalesce(p_full_name, p.full_name),
    bio = coalesce(p_bio, p.bio),
    time_zone = coalesce(p_time_zone, p.time_zone)
  where p.id = auth.uid();
  return public.get_my_profile();
end
$$;

create or replace function public.submit_contact_message(p_name text, p_email text, p_message text) returns uuid
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_name text := btrim(coalesce(p_name, ''));
  v_email text := lower(btrim(coalesce(p_email, '')));
  v_message text := left(btrim(coalesce(p_message, '')), 4000);
  v_id uuid;
begin
  if v_name = '' or v_email = '' or v_message = '' then
    raise exception 'Name, email and message are required.' using errcode = '22023', hint = 'invalid';
  end if;
  if v_email !~ '^[^@[:space:]]+@[^@[:space:]]+$' or char_length(v_email) > 320 then
    raise exception 'Please enter a valid email address.' using errcode = '22023', hint = 'invalid';
  end if;
  insert into public.contact_messages (name, email, message)
  values (left(v_name, 200), v_email, v_message)
  returning id into v_id;
  return v_id;
end
$$;

-- Queues a mail for the local mailbox or the mail provider; only the server may call it.
create or replace function public.enqueue_mail(p_to text, p_subject text, p_body text, p_sender uuid) returns uuid
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_to text := btrim(coalesce(p_to, ''));
  v_id uuid;
begin
  if v_to !~ '^[^@[:space:]]+@[^@[:space:]]+$' then
    raise exception 'A valid recipient is required.' using errcode = '22023', hint = 'invalid';
  end if;
  insert into public.outgoing_mail (to_address, subject, body, sender_id)
  values (v_to, coalesce(p_subject, ''), coalesce(p_body, ''), p_sender)
  returning id into v_id;
  return v_id;
end
$$;

revoke all on function public.username_available(text), public.get_my_profile(), public.claim_username(text),
  public.update_my_profile(text, text, text, text), public.submit_contact_message(text, text, text),
  public.enqueue_mail(text, text, text, uuid)
  from public, anon, authenticated;
grant execute on function public.username_available(text), public.get_my_profile(),
  public.submit_contact_message(text, text, text)
  to anon, authenticated, service_role;
grant execute on function public.claim_username(text), public.update_my_profile(text, text, text, text)
  to authenticated, service_role;
grant execute on function public.enqueue_mail(text, text, text, uuid) to service_role;
