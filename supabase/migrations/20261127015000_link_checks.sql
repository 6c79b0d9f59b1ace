-- When each saved link was last checked for a broken page (docs/architecture.md, Broken links),
-- kept apart from the link so a weekly check moves no row a device pulls: only a change of
-- saved_links.broken_at does.
create table private.link_checks (
  link_id uuid primary key references public.saved_links (id) on delete cascade,
  checked_at timestamptz not null
);
create index link_checks_checked_at on private.link_checks (checked_at);
revoke all on table private.link_checks from public, anon, authenticated;
grant select, insert, update, delete on table private.link_checks to service_role;
