-- Written by `npm run db:diff` from supabase/schemas: function private.poll_pick.
-- Review it, then commit it with the schema change.

-- supabase/schemas/time_polls.sql
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
