-- A pull from scratch walks each table through an index (private.sync_scratch_page, docs/scale.md):
-- a directory's links by (directory_id, id), which also serves every read of saved_links_directory_idx.
drop index if exists public.saved_links_directory_idx;
create index saved_links_directory_id_idx on public.saved_links (directory_id, id);

-- sync_pull answers json (text built once), not jsonb: its return type changes.
drop function if exists public.sync_pull(text, integer);
