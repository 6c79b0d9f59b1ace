-- voting_posts.created_by held the creator's e-mail address, and a public poll reaches every
-- signed-in user. It now holds the creator's username (null for an account without one), which
-- the rules keep in step (supabase/schemas/rules.sql); created_by_id stays who created the poll.
-- Every poll is written again with a new txid, tombstones too, so each device pulls it once more
-- and the address it kept is replaced. The rule triggers are off for this one update: it changes
-- only this column, and must not fail on an old row that today's rules would refuse.
comment on column public.voting_posts.created_by is
  'The creator''s username (null without one), shown for the poll; never an e-mail address.';

alter table public.voting_posts disable trigger user;

update public.voting_posts v
set created_by = (select p.username from public.user_profiles p where p.id = v.created_by_id),
    txid = pg_current_xact_id();

alter table public.voting_posts enable trigger user;
