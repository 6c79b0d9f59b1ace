-- the sync internals' old copies in public go; sync_push and sync_pull now call
-- those in schema private (..._sync_private_helpers.sql, ..._sync_private_push.sql,
-- ..._sync_pull_confirmed.sql). What is left of sync in public is sync_push and sync_pull alone
-- (tests/db/rpc-surface.test.ts holds every RPC a client role may call to an allow-list).

drop function public.sync_push_one(uuid, text, jsonb);
drop function public.sync_apply(text, jsonb);
drop function public.sync_apply_profile(text, jsonb);
drop function public.sync_apply_directory(text, jsonb);
drop function public.sync_apply_link(text, jsonb);
drop function public.sync_apply_member(text, jsonb);
drop function public.sync_apply_event(text, jsonb);
drop function public.sync_apply_series(text, jsonb);
drop function public.sync_insert_series(jsonb);
drop function public.sync_apply_poll(text, jsonb);
drop function public.sync_insert_allowed(uuid, boolean);
drop function public.sync_recorded_answer(uuid);
drop function public.sync_record_answer(uuid, jsonb);
drop function public.sync_canonical(jsonb);
drop function public.sync_touched(text, jsonb);
drop function public.sync_missing(text, uuid, boolean);
drop function public.sync_uuid(jsonb, text);
drop function public.sync_bool(jsonb, text);
drop function public.sync_text_array(jsonb);
drop function public.sync_fallback_message(text);
drop function public.sync_error_code(text, text, text);
drop function public.sync_mutation_names();
drop function public.sync_synced_tables();
drop function public.sync_pull_cursor(jsonb);
