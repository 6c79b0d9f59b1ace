-- Which links a preview is being fetched for, and since when (docs/architecture.md, Link previews):
-- two asks for one link fetch its page once. A claim older than 30 s is taken over (the fetch
-- that made it died); a finished preview removes its claim.
create table private.link_preview_claims (
  link_id uuid primary key references public.saved_links (id) on delete cascade,
  claimed_at timestamptz not null default now()
);
revoke all on table private.link_preview_claims from public, anon, authenticated;
grant select, insert, update, delete on table private.link_preview_claims to service_role;
