-- The attempts behind the throttles are purged as they are recorded: about one record in a hundred
-- also deletes the attempts older than a day (private.throttle_purge; no limit looks back further
-- than an hour), so the table stays small without a scheduled job. A hosted install may still run
-- `select private.throttle_purge()` on a schedule.

create or replace function private.throttle_record(p_bucket text, p_subject text) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  insert into private.throttle_attempts (bucket, subject) values (p_bucket, left(coalesce(p_subject, ''), 320));
  if random() < 0.01 then
    perform private.throttle_purge();
  end if;
end
$$;
