-- 'Find a time' polls as their creator and their invitees act on them (docs/product.md, Find a time):
-- remove a slot, pick the time (the creator's event, the invitations, the mail), answer an
-- invitation. Called from private.sync_apply_poll and, for an invitation, private.sync_apply itself (sync_apply.sql).
--
-- The current definitions (docs/architecture.md, "Rules written once"): edit here, then run
-- `npm run db:diff` to write the migration.

-- A time poll as its creator acts on it (poll.remove_slot, poll.pick), locked: 'Poll not found.'
-- when the caller cannot see it (a team poll of a directory they left) or it is deleted, the
-- creator's refusal when the caller is someone else, and a choice poll is no time poll.
create or replace function private.time_poll_of_creator(p_post uuid, p_refusal text)
returns public.voting_posts
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  post public.voting_posts;
begin
  select * into post from public.voting_posts v where v.id = p_post for update;
  if not found or post.deleted_at is not null
     or (post.directory_id is not null and not private.can_view_directory(post.directory_id)) then
    raise exception 'Poll not found.' using errcode = 'P0002', hint = 'not_found';
  end if;
  if post.created_by_id is distinct from auth.uid() then
    raise exception '%', p_refusal using errcode = '42501', hint = 'forbidden';
  end if;
  if post.kind is distinct from 'time' then
    raise exception 'This poll has no time slots.' using errcode = '22023', hint = 'invalid';
  end if;
  return post;
end
$$;
revoke all on function private.time_poll_of_creator(p_post uuid, p_refusal text) from public, anon, authenticated, service_role;
grant execute on function private.time_poll_of_creator(p_post uuid, p_refusal text) to service_role;

-- poll.remove_slot: the creator takes a slot off a time poll with every answer to it, while another
-- stays and until the pick. Definer: the slots and the other voters' answers are the server's to
-- change (voting_posts_guard_votes, slot_answers RLS); it acts only on the caller's own poll.
create or replace function private.poll_remove_slot(p_post uuid, p_slot text) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  post public.voting_posts := private.time_poll_of_creator(p_post, 'Only the creator of this poll can remove a slot.');
  v_slot text := lower(p_slot);
begin
  if post.picked_slot_id is not null then
    raise exception 'This poll is closed.' using errcode = 'P0001', hint = 'poll_closed';
  end if;
  if not exists (select 1 from jsonb_array_elements(post.options) o where o ->> 'id' = v_slot) then
    raise exception 'This time slot no longer exists.' using errcode = 'P0002', hint = 'not_found';
  end if;
  if jsonb_array_length(post.options) <= 1 then
    raise exception 'A poll needs at least one time slot.' using errcode = '22023', hint = 'invalid';
  end if;
  update public.voting_posts v
  set options = (select jsonb_agg(o order by n) from jsonb_array_elements(v.options) with ordinality x(o, n)
                 where o ->> 'id' <> v_slot)
  where v.id = p_post;
  -- slot_answers_rules lets exactly this change through, for this statement only.
  perform set_config('linkboard.strip_slot', v_slot, true);
  update public.slot_answers a set answers = a.answers - v_slot where a.post_id = p_post and a.answers ? v_slot;
  perform set_config('linkboard.strip_slot', '', true);
  perform private.time_poll_recount(p_post);
end
$$;
revoke all on function private.poll_remove_slot(p_post uuid, p_slot text) from public, anon, authenticated, service_role;
grant execute on function private.poll_remove_slot(p_post uuid, p_slot text) to authenticated, service_role;

-- A slot's times: a start and its minutes, or a whole day from its midnight in the poll's zone to
-- the next (an all-day event, docs/architecture.md, Calendar).
create or replace function private.time_slot_times(p_slot jsonb, p_zone text,
                                                   out starts_at timestamptz, out ends_at timestamptz,
                                                   out all_day boolean)
language plpgsql stable
set search_path = ''
as $$
begin
  if p_slot ? 'day' then
    starts_at := ((p_slot ->> 'day')::date)::timestamp at time zone p_zone;
    ends_at := ((p_slot ->> 'day')::date + 1)::timestamp at time zone p_zone;
    all_day := true;
  else
    starts_at := (p_slot ->> 'start')::timestamptz;
    ends_at := starts_at + make_interval(mins => (p_slot ->> 'minutes')::integer);
    all_day := false;
  end if;
end
$$;
revoke all on function private.time_slot_times(p_slot jsonb, p_zone text, out starts_at timestamptz, out ends_at timestamptz, out all_day boolean) from public, anon, authenticated, service_role;
grant execute on function private.time_slot_times(p_slot jsonb, p_zone text, out starts_at timestamptz, out ends_at timestamptz, out all_day boolean) to service_role;

-- poll.pick (docs/product.md, Find a time): the creator picks a slot. At most 10 picks an hour per
-- poll. The creator's event (p_event the first time) is made from the slot, or the poll's earlier
-- event moves to it (made again if the creator deleted it); the poll closes, names the slot and
-- event, and counts the pick (the .ics SEQUENCE). Every other voter who answered Yes or If need be
-- to the slot is offered it (an invitation, pending); existing invitations get the new times, and
-- an accepted one's event moves with them. Then the mail (private.queue_pick_mail). Definer: the
-- poll's pick columns, other users' invitations and accepted events are the server's to write;
-- it acts only for the poll's creator, who is the caller.
create or replace function private.poll_pick(p_post uuid, p_slot text, p_event uuid) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  post public.voting_posts := private.time_poll_of_creator(p_post, 'Only the creator of this poll can pick the time.');
  uid uuid := auth.uid();
  v_slot jsonb;
  t record;
  v_event uuid;
  v_inviter text;
begin
  select o into v_slot from jsonb_array_elements(post.options) o where o ->> 'id' = lower(p_slot);
  if v_slot is null then
    raise exception 'This time slot no longer exists.' using errcode = 'P0002', hint = 'not_found';
  end if;
  if private.throttle_wait('poll_pick', p_post::text, 10, interval '1 hour') > 0 then
    raise exception 'Too many requests. Please try again later.' using errcode = 'P0001', hint = 'limit_reached';
  end if;
  perform private.throttle_record('poll_pick', p_post::text);
  t := private.time_slot_times(v_slot, post.time_zone);

  -- The creator's event: the earlier pick's moves (a deleted one is made again), else p_event.
  if post.picked_event_id is not null then
    update public.calendar_events e
    set starts_at = t.starts_at, ends_at = t.ends_at, all_day = t.all_day, deleted_at = null
    where e.id = post.picked_event_id and e.owner_id = uid
      and (e.deleted_at is null or p_event = post.picked_event_id
           or exists (select 1 from public.calendar_events x where x.id = p_event));
    if found then
      v_event := post.picked_event_id;
    end if;
  end if;
  if v_event is null then
    insert into public.calendar_events (id, title, description, starts_at, ends_at, all_day, is_task, owner_id)
    values (p_event, post.title, post.description, t.starts_at, t.ends_at, t.all_day, false, uid);
    v_event := p_event;
  end if;

  update public.voting_posts v
  -- The poll stays on its board (is_active unchanged): the pick closes it to answers (slot_answers_rules).
  set picked_slot_id = v_slot ->> 'id', picked_event_id = v_event, pick_count = v.pick_count + 1
  where v.id = p_post;

  select p.username into v_inviter from public.user_profiles p where p.id = uid;
  -- Every invitation already made follows the slot; an accepted one's event moves with it.
  update public.event_invitations i
  set starts_at = t.starts_at, ends_at = t.ends_at, all_day = t.all_day, title = post.title,
      description = post.description, inviter_name = v_inviter
  where i.post_id = p_post and i.deleted_at is null;
  update public.calendar_events e
  set starts_at = t.starts_at, ends_at = t.ends_at, all_day = t.all_day
  from public.event_invitations i
  where i.post_id = p_post and i.status = 'accepted' and i.deleted_at is null
    and e.id = i.event_id and e.owner_id = i.user_id and e.deleted_at is null;
  -- The slot's Yes and If need be voters are offered it (again, for one who had declined another time).
  insert into public.event_invitations as i (post_id, user_id, inviter_name, title, description, starts_at,
                                             ends_at, all_day)
  select p_post, a.user_id, v_inviter, post.title, post.description, t.starts_at, t.ends_at, t.all_day
  from public.slot_answers a
  where a.post_id = p_post and a.deleted_at is null and a.user_id <> uid
    and a.answers ->> (v_slot ->> 'id') in ('yes', 'maybe')
  on conflict (post_id, user_id) do update
    set status = case when i.status = 'declined' then 'pending' else i.status end, deleted_at = null;

  perform private.queue_pick_mail(p_post);
end
$$;
revoke all on function private.poll_pick(p_post uuid, p_slot text, p_event uuid) from public, anon, authenticated, service_role;
grant execute on function private.poll_pick(p_post uuid, p_slot text, p_event uuid) to authenticated, service_role;

-- invitation.answer (docs/product.md, Find a time): the invitee accepts (their own event p_event,
-- with the invitation's times) or declines (the accepted event, if any, is deleted). Accepting an
-- accepted invitation (a replay, the other device) changes nothing: never a second event. Definer:
-- invitations have no client write policy; it acts only on the caller's own invitation.
create or replace function private.invitation_answer(p_id uuid, p_accept boolean, p_event uuid) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  inv public.event_invitations;
  uid uuid := auth.uid();
begin
  select * into inv from public.event_invitations i where i.id = p_id and i.user_id = uid for update;
  if not found or inv.deleted_at is not null then
    raise exception 'This invitation is no longer available.' using errcode = 'P0002', hint = 'not_found';
  end if;
  if p_accept then
    if inv.status = 'accepted' then
      return;
    end if;
    -- The same id accepted again after a decline is the event made again.
    update public.calendar_events e
    set title = inv.title, description = inv.description, starts_at = inv.starts_at, ends_at = inv.ends_at,
        all_day = inv.all_day, deleted_at = null
    where e.id = p_event and e.owner_id = uid and e.deleted_at is not null;
    if not found then
      insert into public.calendar_events (id, title, description, starts_at, ends_at, all_day, is_task, owner_id)
      values (p_event, inv.title, inv.description, inv.starts_at, inv.ends_at, inv.all_day, false, uid);
    end if;
    update public.event_invitations i set status = 'accepted', event_id = p_event where i.id = p_id;
  else
    if inv.event_id is not null then
      update public.calendar_events e set deleted_at = now()
      where e.id = inv.event_id and e.owner_id = uid and e.deleted_at is null;
    end if;
    update public.event_invitations i set status = 'declined', event_id = null
    where i.id = p_id and (i.status <> 'declined' or i.event_id is not null);
  end if;
end
$$;
revoke all on function private.invitation_answer(p_id uuid, p_accept boolean, p_event uuid) from public, anon, authenticated, service_role;
grant execute on function private.invitation_answer(p_id uuid, p_accept boolean, p_event uuid) to authenticated, service_role;
