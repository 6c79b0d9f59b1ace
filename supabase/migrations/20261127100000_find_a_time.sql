-- 'Find a time' polls (docs/product.md, Find a time): a poll whose options are time slots, answered
-- Yes, If need be or No per slot, and picked by its creator into an event offered to the people who
-- could come. The rules (who may answer, pick, accept; the counts; the mail) are in supabase/schemas.

-- A poll's kind: 'choice' (one vote among 2 to 6 options) or 'time' (slots, answered one by one).
-- A time poll's options are its slots: {id, text, votes, yes, maybe} with either start (an instant)
-- and minutes, or day (a date, a whole day); votes is the Yes count (what a choice poll's reader shows).
alter table public.voting_posts add column kind text not null default 'choice'
  constraint voting_posts_kind check (kind in ('choice', 'time'));
-- The creator's time zone when the poll was made: a whole-day slot is a day there, and every voter
-- sees it named beside their own.
alter table public.voting_posts add column time_zone text
  constraint voting_posts_time_zone_length check (char_length(time_zone) <= 64);
-- The slot the creator picked, and the creator's event made from it (moved when picked again).
alter table public.voting_posts add column picked_slot_id text
  constraint voting_posts_picked_slot_length check (char_length(picked_slot_id) <= 64);
alter table public.voting_posts add column picked_event_id uuid;
-- How many times the poll was picked: the .ics SEQUENCE of its event, so a calendar replaces the
-- earlier time when the event moves.
alter table public.voting_posts add column pick_count integer not null default 0;
alter table public.voting_posts drop constraint if exists voting_posts_options_check;
alter table public.voting_posts add constraint voting_posts_options_check
  check (jsonb_typeof(options) = 'array'
         and jsonb_array_length(options) between case when kind = 'time' then 1 else 2 end
                                         and case when kind = 'time' then 30 else 6 end);

-- One row per voter and time poll: every slot's answer ('yes', 'maybe' or 'no') by slot id. A replay,
-- or the voter's other device, writes the same row (unique per poll and voter), so each voter counts once.
create table public.slot_answers (
  id uuid primary key default gen_random_uuid(),
  post_id uuid not null references public.voting_posts (id) on delete cascade,
  user_id uuid not null references public.user_profiles (id) on delete cascade,
  -- The poll's directory (a team poll's answers are seen by its people); null for a public poll.
  directory_id uuid references public.link_directories (id) on delete cascade,
  -- The voter as the grid names them: their username, else their full name; never an address.
  voter_name text check (char_length(voter_name) <= 200),
  answers jsonb not null default '{}' check (jsonb_typeof(answers) = 'object'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz,
  txid xid8 not null default pg_current_xact_id(),
  constraint slot_answers_one_per_voter unique (post_id, user_id)
);
create index slot_answers_user_idx on public.slot_answers (user_id);
create index slot_answers_directory_idx on public.slot_answers (directory_id);
create index slot_answers_txid_idx on public.slot_answers (txid);

-- The picked time offered to one person who answered Yes or If need be: pending until they accept
-- (an event of their own is made, event_id) or decline. Picking again moves it, and the accepted event.
create table public.event_invitations (
  id uuid primary key default gen_random_uuid(),
  post_id uuid references public.voting_posts (id) on delete set null,
  user_id uuid not null references public.user_profiles (id) on delete cascade,
  -- Who picked the time, by username (null without one); never an address.
  inviter_name text check (char_length(inviter_name) <= 200),
  title text not null check (char_length(title) <= 500),
  description text check (char_length(description) <= 5000),
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  all_day boolean not null default false,
  status text not null default 'pending' constraint event_invitations_status
    check (status in ('pending', 'accepted', 'declined')),
  -- The invitee's own event, once accepted.
  event_id uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz,
  txid xid8 not null default pg_current_xact_id(),
  constraint event_invitations_one_per_person unique (post_id, user_id)
);
create index event_invitations_user_idx on public.event_invitations (user_id);
create index event_invitations_txid_idx on public.event_invitations (txid);

alter table public.slot_answers enable row level security;
alter table public.event_invitations enable row level security;
revoke truncate, references, trigger on public.slot_answers, public.event_invitations from anon, authenticated;
revoke all on public.slot_answers, public.event_invitations from anon;

-- The confirmation mail's event (.ics attachment), as the mail was queued: {uid, sequence, title,
-- description, starts_at, ends_at, all_day, time_zone, url, method}. The sender builds the file.
alter table public.outgoing_mail add column calendar jsonb
  constraint outgoing_mail_calendar check (calendar is null or jsonb_typeof(calendar) = 'object');
