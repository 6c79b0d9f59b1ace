-- Written by `npm run db:diff` from supabase/schemas: function public.user_votes_rules.
-- Review it, then commit it with the schema change.

-- supabase/schemas/rules.sql
create or replace function public.user_votes_rules() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  post record;
begin
  new.user_id := coalesce(auth.uid(), new.user_id);
  new.user_email := private.confirmed_email_of(new.user_id);
  select v.is_active, v.deadline, v.deleted_at, v.options, v.directory_id into post
  from public.voting_posts v where v.id = new.post_id;
  if not found then
    raise exception 'Poll not found.' using errcode = 'P0002', hint = 'not_found';
  end if;
  -- A team poll takes votes only from its directory's owner and live members (a removed member,
  -- its creator among them, no longer). Checked before anything else about the poll, so an
  -- outsider learns nothing of how it stands.
  if post.directory_id is not null
     and not exists (select 1 from public.link_directories d
                     where d.id = post.directory_id and d.owner_id = new.user_id)
     and not exists (select 1 from public.directory_members m
                     where m.directory_id = post.directory_id and m.deleted_at is null
                       and m.user_email = new.user_email) then
    raise exception 'You do not have access to this poll.' using errcode = '42501', hint = 'forbidden';
  end if;
  if post.deleted_at is not null then
    raise exception 'Poll not found.' using errcode = 'P0002', hint = 'not_found';
  end if;
  -- The server's clock decides (now(): the pushing transaction's start); a client sends no time.
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
revoke all on function public.user_votes_rules() from public, anon, authenticated, service_role;
grant execute on function public.user_votes_rules() to service_role;
