/**
 * The lengths a saved link's texts may have (docs/product.md, Validation), as the server's row
 * trigger enforces them (supabase/schemas/rules.sql, `text_limits` on saved_links). Pure: the
 * importer and the Edge Functions (link previews) cut to them.
 */
export const LINK_TITLE_MAX = 500;
export const LINK_NOTES_MAX = 10000;
export const LINK_DESCRIPTION_MAX = 2000;
