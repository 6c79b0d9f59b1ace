-- Invitations bind to a confirmed address only. Memberships were matched on the
-- JWT's e-mail claim, which names an address right after sign-up (before anyone opened a link
-- mailed to it) and, until now, right after an e-mail change. Every membership check now reads
-- private.confirmed_email(): the account's current address in auth.users, and only once
-- email_confirmed_at is set. An unconfirmed account sees nothing of a directory it was invited to;
-- a confirmed e-mail change drops the old address's memberships and picks up the new one's.
-- (sync_pull's own membership match is redefined with the sync functions.)

-- The confirmed address of any account (the rule triggers check the row's user, not only the caller).
create or replace function private.confirmed_email_of(p_user uuid) returns text
language sql stable security definer
set search_path = ''
as $$
  select lower(u.email) from auth.users u where u.id = p_user and u.email_confirmed_at is not null
$$;
revoke all on function private.confirmed_email_of(uuid) from public, anon, authenticated;
grant execute on function private.confirmed_email_of(uuid) to service_role;

-- A live membership of the caller's confirmed e-mail (any role).
create or replace function public.is_directory_member(dir uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.directory_members m
    where m.directory_id = dir and m.deleted_at is null and m.user_email = (select private.confirmed_email())
  )
$$;

-- Owner, or live editor (by confirmed e-mail), of a live directory.
create or replace function public.can_edit_directory(dir uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.link_directories d
    where d.id = dir and d.deleted_at is null and (
      d.owner_id = auth.uid() or exists (
        select 1 from public.directory_members m
        where m.directory_id = d.id and m.deleted_at is null and m.role = 'editor'
          and m.user_email = (select private.confirmed_email())
      )
    )
  )
$$;

-- Every directory the caller owns or is a live member of by confirmed e-mail.
create or replace function public.viewable_directory_ids() returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select d.id from public.link_directories d where d.owner_id = auth.uid()
  union
  select m.directory_id from public.directory_members m
  where m.deleted_at is null and m.user_email = (select private.confirmed_email())
$$;

-- A user reads their own membership rows (so a removal reaches them) by confirmed e-mail only.
alter policy directory_members_select on public.directory_members
  using (directory_id in (select public.viewable_directory_ids())
         or user_email = (select private.confirmed_email()));

-- The vote's e-mail is the voter's confirmed address, set by user_votes_rules whatever the client
-- sends (null for an unconfirmed account); the policy no longer compares it with the JWT's claim.
alter policy user_votes_insert on public.user_votes
  with check (user_id = (select auth.uid()) and public.can_see_post(post_id));

create or replace function public.user_votes_rules() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  post record;
begin
  new.user_id := coalesce(auth.uid(), new.user_id);
  new.user_email := private.confirmed_email_of(new.user_id);
  select v.is_active, v.deadline, v.deleted_at, v.options into post from public.voting_posts v where v.id = new.post_id;
  if not found or post.deleted_at is not null then
    raise exception 'Poll not found.' using errcode = 'P0002', hint = 'not_found';
  end if;
  if not post.is_active or (post.deadline is not null and post.deadline <= now()) then
    raise exception 'This poll is closed.' using errcode = 'P0001', hint = 'poll_closed';
  end if;
  if new.option_index is null or new.option_index < 0 or new.option_index >= jsonb_array_length(post.options) then
    raise exception 'Invalid option.' using errcode = '22023', hint = 'invalid';
  end if;
  if exists (select 1 from public.user_votes u where u.post_id = new.post_id and u.user_id = new.user_id) then
    raise exception 'You have already voted on this poll.' using errcode = '23505', hint = 'already_voted';
  end if;
  return new;
end
$$;
