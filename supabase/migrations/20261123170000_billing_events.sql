-- Billing: the card provider's webhook events, each kept once (the webhook is idempotent
-- per event id, so a replayed or redelivered event changes nothing and mails nothing), and the
-- time of the newest event applied to a customer (an older event arriving late never undoes a newer one).
create table public.billing_events (
  id text primary key check (char_length(id) between 1 and 255),
  type text not null check (char_length(type) between 1 and 100),
  created_at timestamptz not null,
  received_at timestamptz not null default now(),
  user_id uuid references auth.users (id) on delete set null,
  outcome text not null default 'received' check (char_length(outcome) <= 40)
);
create index billing_events_user_idx on public.billing_events (user_id, received_at);

alter table public.billing_events enable row level security;
revoke all on public.billing_events from public, anon, authenticated;
grant all on public.billing_events to service_role;

alter table public.billing_customers add column last_event_at timestamptz;
