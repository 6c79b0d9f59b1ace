-- The rule triggers of each table, in the order they run: t05 text limits, t10 row metadata, t15 guards, t20 rules, t30 what follows.
--
-- The current definitions (docs/architecture.md, "Rules written once"): edit here, then run
-- `npm run db:diff` to write the migration. Tables, columns and data changes stay in migrations.

create or replace trigger t05_limits before insert or update on public.calendar_events
  for each row execute function private.text_limits(
    'title', '500', 'The title can be at most 500 characters.',
    'description', '5000', 'The description can be at most 5000 characters.');

create or replace trigger t10_row_meta before insert or update on public.calendar_events
  for each row execute function public.row_meta('id', 'owner_id');

create or replace trigger t20_rules before insert or update on public.calendar_events
  for each row execute function public.calendar_events_rules();

create or replace trigger t05_limits before insert or update on public.directory_members
  for each row execute function private.text_limits(
    'user_email', '320', 'The e-mail address can be at most 320 characters.');

create or replace trigger t10_row_meta before insert or update on public.directory_members
  for each row execute function public.row_meta('id', 'directory_id', 'user_email', 'inviter_id');

create or replace trigger t20_rules before insert or update on public.directory_members
  for each row execute function public.directory_members_rules();

create or replace trigger t05_limits before insert or update on public.link_directories
  for each row execute function private.text_limits(
    'name', '100', 'The directory name can be at most 100 characters.',
    'description', '1000', 'The description can be at most 1000 characters.');

create or replace trigger t10_row_meta before insert or update on public.link_directories
  for each row execute function public.row_meta('id', 'owner_id', 'has_password');

create or replace trigger t20_rules before insert or update on public.link_directories
  for each row execute function public.link_directories_rules();

create or replace trigger t30_tombstone after update of deleted_at on public.link_directories
  for each row when (old.deleted_at is null and new.deleted_at is not null)
  execute function public.link_directories_tombstone();

create or replace trigger t05_limits before insert or update on public.saved_links
  for each row execute function private.text_limits(
    'url', '2048', 'The URL can be at most 2048 characters.',
    'title', '500', 'The title can be at most 500 characters.',
    'notes', '10000', 'The notes can be at most 10000 characters.',
    'description', '2000', 'The description can be at most 2000 characters.',
    'tags', '50', 'A link can have at most 50 tags.');

create or replace trigger t10_row_meta before insert or update on public.saved_links
  for each row execute function public.row_meta('id', 'owner_id', 'created_by', 'created_at:past',
    'server:site_name', 'server:icon_url', 'server:image_url', 'server:preview_state', 'server:previewed_at',
    'server:broken_at');

create or replace trigger t20_rules before insert or update on public.saved_links
  for each row execute function public.saved_links_rules();

create or replace trigger t05_limits before insert or update on public.user_profiles
  for each row execute function private.text_limits(
    'full_name', '200', 'The name can be at most 200 characters.',
    'bio', '500', 'The bio can be at most 500 characters.',
    'username', '30', 'A username can be at most 30 characters.',
    'time_zone', '64', 'Unknown time zone.');

create or replace trigger t10_row_meta before insert or update on public.user_profiles
  for each row execute function public.row_meta('id', 'email', 'subscription_tier');

create or replace trigger t20_rules before insert or update on public.user_profiles
  for each row execute function public.user_profiles_rules();

create or replace trigger t30_poll_creator after update of username on public.user_profiles
  for each row when (old.username is distinct from new.username)
  execute function private.user_profiles_poll_creator();

create or replace trigger t10_row_meta before insert or update on public.user_votes
  for each row execute function public.row_meta('*');

create or replace trigger t20_rules before insert on public.user_votes
  for each row execute function public.user_votes_rules();

create or replace trigger t30_count after insert on public.user_votes
  for each row execute function public.user_votes_count();

create or replace trigger t05_limits before insert or update on public.voting_posts
  for each row execute function private.text_limits(
    'title', '500', 'The title can be at most 500 characters.',
    'description', '5000', 'The description can be at most 5000 characters.');

create or replace trigger t10_row_meta before insert or update on public.voting_posts
  for each row execute function public.row_meta('id', 'created_by', 'created_by_id', 'directory_id', 'kind',
    'time_zone', 'picked_slot_id', 'picked_event_id', 'pick_count');

create or replace trigger t15_guard_votes before update of options on public.voting_posts
  for each row execute function public.voting_posts_guard_votes();

create or replace trigger t20_rules before insert or update on public.voting_posts
  for each row execute function public.voting_posts_rules();

create or replace trigger t10_row_meta before insert or update on public.slot_answers
  for each row execute function public.row_meta('id', 'post_id', 'user_id', 'directory_id');

create or replace trigger t20_rules before insert or update on public.slot_answers
  for each row execute function public.slot_answers_rules();

create or replace trigger t30_count after insert or update of answers, deleted_at on public.slot_answers
  for each row execute function public.slot_answers_count();

create or replace trigger t10_row_meta before insert or update on public.event_invitations
  for each row execute function public.row_meta('*');
