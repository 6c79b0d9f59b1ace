-- What the server learns of a saved link's page (docs/architecture.md, Link previews): the site's
-- name, its icon and preview image (URLs the app shows through the link-image function), whether the
-- preview was read ('done') or could not be ('failed'), and when. broken_at: when the broken-link
-- check last found the page gone (404, 410, a host that no longer resolves); null when it answers.
-- Only the server writes them (rules.sql: row_meta refuses them from a client).
alter table public.saved_links
  add column site_name text,
  add column icon_url text,
  add column image_url text,
  add column preview_state text,
  add column previewed_at timestamptz,
  add column broken_at timestamptz,
  add constraint saved_links_preview_state check (preview_state in ('done', 'failed')),
  add constraint saved_links_site_name_length check (char_length(site_name) <= 200),
  add constraint saved_links_icon_url_length check (char_length(icon_url) <= 2048),
  add constraint saved_links_image_url_length check (char_length(image_url) <= 2048);
