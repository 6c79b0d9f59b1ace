-- Rules of the calendar's rows (docs/product.md): all-day items, series (Pro, at most 1,000 occurrences) and the Free month's 10 events.
--
-- The current definitions (docs/architecture.md, "Rules written once"): edit here, then run
-- `npm run db:diff` to write the migration. Tables, columns and data changes stay in migrations.

create or replace function public.calendar_events_rules() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  tier text := public.tier_of(new.owner_id);
begin
  new.title := btrim(new.title);
  new.description := nullif(new.description, '');
  new.recurrence_rule := coalesce(new.recurrence_rule, 'none');
  if tg_op = 'INSERT' then
    new.quota_month := private.quota_month(new.owner_id, new.created_at);
  else
    new.quota_month := old.quota_month;
  end if;
  if (new.series_id is not null or new.recurrence_rule <> 'none')
     and (tg_op = 'INSERT' or new.series_id is distinct from old.series_id
          or new.recurrence_rule is distinct from old.recurrence_rule)
     and tier = 'free' then
    raise exception 'Recurring events are a Pro feature.' using errcode = 'P0001', hint = 'limit_reached';
  end if;
  -- An all-day item is whole days (docs/architecture.md): it has a date, and an event ends after it starts.
  if new.all_day and new.starts_at is null then
    raise exception 'An all-day item needs a date.' using errcode = '22023', hint = 'invalid';
  end if;
  if new.all_day and not new.is_task and (new.ends_at is null or new.ends_at <= new.starts_at) then
    raise exception 'The end cannot be before the start.' using errcode = '22023', hint = 'invalid';
  end if;
  if tg_op = 'UPDATE' and new.series_id is not null and new.is_task is distinct from old.is_task then
    raise exception 'An event in a recurring series cannot become a task.' using errcode = '22023', hint = 'invalid';
  end if;
  if new.series_id is not null and (tg_op = 'INSERT' or new.series_id is distinct from old.series_id)
     and (select count(*) from public.calendar_events e where e.series_id = new.series_id and e.id <> new.id) >= 1000 then
    raise exception 'A series can have at most 1,000 occurrences.' using errcode = '22023', hint = 'invalid';
  end if;
  if tier = 'free' and not new.is_task and new.deleted_at is null
     and (tg_op = 'INSERT' or old.is_task or old.deleted_at is not null) then
    perform public.lock_account(new.owner_id);
    if (select count(*) from public.calendar_events e
        where e.owner_id = new.owner_id and not e.is_task and e.deleted_at is null and e.id <> new.id
          and e.quota_month = private.quota_month(new.owner_id, now())) >= 10 then
      raise exception 'Upgrade to Pro to create more than 10 events per month.'
        using errcode = 'P0001', hint = 'limit_reached';
    end if;
  end if;
  return new;
end
$$;
revoke all on function public.calendar_events_rules() from public, anon, authenticated, service_role;
grant execute on function public.calendar_events_rules() to service_role;
