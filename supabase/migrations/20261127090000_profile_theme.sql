-- The app's theme (docs/product.md, Profile): light, dark, or follow the system, chosen on Profile
-- and synced with the profile like any other field.
alter table public.user_profiles add column theme text not null default 'system'
  constraint user_profiles_theme check (theme in ('light', 'dark', 'system'));
