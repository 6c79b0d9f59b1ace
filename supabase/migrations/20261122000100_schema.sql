-- Linkboard schema: the synced tables (spec section 3, design section 3) and the
-- server-only tables. Rules live in ..._rules.sql, access in ..._rls.sql, accounts and
-- RPCs in ..._accounts.sql.

-- ---------------------------------------------------------------------------
-- Synced tables. Each has id, created_at, updated_at, deleted_at (tombstone) and
-- txid (the writing transaction, for the snapshot-based pull cursor).
-- ---------------------------------------------------------------------------

create table public.user_profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  email text,
  full_name text default '' check (char_length(full_name) <= 200),
  username text check (
    username is null or (char_length(username) between 3 and 30 and username ~ '^[a-z0-9_-]+$')
  ),
  bio text default '' check (char_length(bio) <= 500),
  subscription_tier text not null default 'free' check (subscription_tier in ('free', 'pro', 'team')),
  time_zone text not null default 'UTC' check (char_length(time_zone) between 1 and 64),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz,
  txid xid8 not null default pg_current_xact_id()
);
create unique index user_profiles_username_key on public.user_profiles (lower(username));
create index user_profiles_txid_idx on public.user_profiles (txid);

create table public.link_directories (
  id uuid primary key default gen_random_uuid(),
  name text not null check (btrim(name) <> '' and char_length(name) <= 100),
  description text check (char_length(description) <= 1000),
  color text not null default 'blue' check (color in ('blue', 'purple', 'green', 'orange', 'pink', 'indigo')),
  is_public boolean not null default false,
  has_password boolean not null default false,
  owner_id uuid not null default auth.uid() references public.user_profiles (id) on delete cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz,
  txid xid8 not null default pg_current_xact_id()
);
create index link_directories_owner_idx on public.link_directories (owner_id);
create index link_directories_txid_idx on public.link_directories (txid);

create table public.saved_links (
  id uuid primary key default gen_random_uuid(),
  directory_id uuid not null references public.link_directories (id) on delete cascade,
  url text not null check (char_length(url) <= 2048 and url ~* '^https?://[^[:space:]]+$'),
  title text not null check (btrim(title) <> '' and char_length(title) <= 500),
  notes text check (char_length(notes) <= 10000),
  description text check (char_length(description) <= 2000),
  tags text[] not null default '{}' check (cardinality(tags) <= 50),
  is_favorite boolean not null default false,
  created_by uuid references public.user_profiles (id) on delete set null,
  owner_id uuid not null references public.user_profiles (id) on delete cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz,
  txid xid8 not null default pg_current_xact_id()
);
create index saved_links_directory_idx on public.saved_links (directory_id);
create index saved_links_owner_idx on public.saved_links (owner_id) where deleted_at is null;
create index saved_links_txid_idx on public.saved_links (txid);

create table public.directory_members (
  id uuid primary key default gen_random_uuid(),
  directory_id uuid not null references public.link_directories (id) on delete cascade,
  user_email text not null check (char_length(user_email) <= 320 and user_email ~ '^[^@[:space:]]+@[^@[:space:]]+$'),
  role text not null default 'viewer' check (role in ('viewer', 'editor')),
  inviter_id uuid references public.user_profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz,
  txid xid8 not null default pg_current_xact_id()
);
create unique index directory_members_live_key on public.directory_members (directory_id, user_email)
  where deleted_at is null;
create index directory_members_email_idx on public.directory_members (user_email) where deleted_at is null;
create index directory_members_txid_idx on public.directory_members (txid);

create table public.calendar_events (
  id uuid primary key default gen_random_uuid(),
  title text not null check (btrim(title) <> '' and char_length(title) <= 500),
  description text check (char_length(description) <= 5000),
  starts_at timestamptz,
  ends_at timestamptz,
  owner_id uuid not null default auth.uid() references public.user_profiles (id) on delete cascade,
  is_task boolean not null default false,
  priority text check (priority in ('low', 'medium', 'high')),
  is_completed boolean not null default false,
  series_id uuid,
  recurrence_rule text not null default 'none' check (recurrence_rule in ('none', 'daily', 'weekly', 'monthly')),
  recurrence_end_date timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz,
  txid xid8 not null default pg_current_xact_id(),
  constraint calendar_events_range check (ends_at is null or starts_at is null or ends_at >= starts_at),
  constraint calendar_events_event_start check (is_task or starts_at is not null)
);
create index calendar_events_owner_idx on public.calendar_events (owner_id, created_at);
create index calendar_events_series_idx on public.calendar_events (series_id) where series_id is not null;
create index calendar_events_txid_idx on public.calendar_events (txid);

create table public.voting_posts (
  id uuid primary key default gen_random_uuid(),
  title text not null check (btrim(title) <> '' and char_length(title) <= 500),
  description text check (char_length(description) <= 5000),
  options jsonb not null check (jsonb_typeof(options) = 'array' and jsonb_array_length(options) between 2 and 6),
  deadline timestamptz,
  directory_id uuid references public.link_directories (id) on delete cascade,
  created_by text,
  created_by_id uuid references public.user_profiles (id) on delete cascade,
  is_active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz,
  txid xid8 not null default pg_current_xact_id()
);
create index voting_posts_directory_idx on public.voting_posts (directory_id);
create index voting_posts_creator_idx on public.voting_posts (created_by_id, created_at);
create index voting_posts_txid_idx on public.voting_posts (txid);

create table public.user_votes (
  id uuid primary key default gen_random_uuid(),
  post_id uuid not null references public.voting_posts (id) on delete cascade,
  option_index integer not null check (option_index between 0 and 5),
  user_email text,
  user_id uuid not null references public.user_profiles (id) on delete cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz,
  txid xid8 not null default pg_current_xact_id(),
  constraint user_votes_one_per_user unique (post_id, user_id)
);
create index user_votes_user_idx on public.user_votes (user_id);
create index user_votes_txid_idx on public.user_votes (txid);

-- ---------------------------------------------------------------------------
-- Server-only tables: no client role may read or write them.
-- ---------------------------------------------------------------------------

create table public.directory_secrets (
  directory_id uuid primary key references public.link_directories (id) on delete cascade,
  password_hash text not null,
  updated_at timestamptz not null default now()
);

create table public.contact_messages (
  id uuid primary key default gen_random_uuid(),
  name text not null check (btrim(name) <> '' and char_length(name) <= 200),
  email text not null check (char_length(email) <= 320),
  message text not null check (btrim(message) <> '' and char_length(message) <= 4000),
  created_at timestamptz not null default now()
);

create table public.outgoing_mail (
  id uuid primary key default gen_random_uuid(),
  to_address text not null check (char_length(to_address) <= 320),
  subject text not null check (char_length(subject) <= 998),
  body text not null check (char_length(body) <= 100000),
  sender_id uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);
create index outgoing_mail_created_idx on public.outgoing_mail (created_at);

create table public.billing_customers (
  user_id uuid primary key references public.user_profiles (id) on delete cascade,
  provider_customer_id text unique,
  subscription_id text,
  status text,
  plan text check (plan is null or plan in ('free', 'pro', 'team')),
  billing_cycle text check (billing_cycle is null or billing_cycle in ('monthly', 'yearly')),
  current_period_end timestamptz,
  updated_at timestamptz not null default now()
);

-- ---------------------------------------------------------------------------
-- Row bookkeeping, run as the caller (SECURITY INVOKER, so current_user is the API role):
-- protected columns, created_at/updated_at, txid.
-- TG_ARGV lists the columns a client role (anon, authenticated) may not change; '*' means
-- the row may not be updated by a client at all.
-- ---------------------------------------------------------------------------

create or replace function public.row_meta() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  is_client boolean := current_user::text in ('anon', 'authenticated');
  col text;
begin
  if tg_op = 'UPDATE' then
    if is_client then
      foreach col in array tg_argv loop
        if col = '*' then
          raise exception 'This record cannot be changed.' using errcode = '42501', hint = 'forbidden';
        end if;
        if (to_jsonb(new) -> col) is distinct from (to_jsonb(old) -> col) then
          raise exception 'The field % cannot be changed.', col using errcode = '42501', hint = 'forbidden';
        end if;
      end loop;
      new.created_at := old.created_at;
    end if;
    new.updated_at := now();
  elsif is_client then
    new.created_at := now();
    new.updated_at := now();
  end if;
  new.txid := pg_current_xact_id();
  return new;
end
$$;

create trigger t10_row_meta before insert or update on public.user_profiles
  for each row execute function public.row_meta('id', 'email', 'subscription_tier');
create trigger t10_row_meta before insert or update on public.link_directories
  for each row execute function public.row_meta('id', 'owner_id', 'has_password');
create trigger t10_row_meta before insert or update on public.saved_links
  for each row execute function public.row_meta('id', 'owner_id', 'created_by');
create trigger t10_row_meta before insert or update on public.directory_members
  for each row execute function public.row_meta('id', 'directory_id', 'user_email', 'inviter_id');
create trigger t10_row_meta before insert or update on public.calendar_events
  for each row execute function public.row_meta('id', 'owner_id');
create trigger t10_row_meta before insert or update on public.voting_posts
  for each row execute function public.row_meta('id', 'created_by', 'created_by_id', 'directory_id');
create trigger t10_row_meta before insert or update on public.user_votes
  for each row execute function public.row_meta('*');

revoke all on function public.row_meta() from public, anon, authenticated;
