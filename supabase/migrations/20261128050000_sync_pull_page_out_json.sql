-- private.sync_pull_page answers its rows as JSON text in out parameters (changes, more, last), not
-- one jsonb: its return type changes (the next migration creates it again from supabase/schemas).
drop function if exists private.sync_pull_page(uuid, text, uuid[], xid8, uuid[], xid8, text, uuid, integer);
