/**
 * The RPCs a client is meant to reach: every function in schema public that a client role may
 * execute, and whether a visitor (`anon`) may. tests/db/rpc-surface.test.ts holds the database to
 * it (tests/local/fuzz-rpcs.ts), and `npm run deploy:check` holds a deployed database to it.
 */
export interface AllowedRpc {
  /** May the anonymous role execute it (a visitor's call)? */
  anon: boolean;
  /** Who calls it. */
  why: string;
}

/** The RPCs the app and the edge functions call (src/, supabase/functions). */
export const CLIENT_RPCS: Record<string, AllowedRpc> = {
  sync_push: { anon: false, why: 'the sync engine (src/backend/sync-transport.ts)' },
  sync_pull: { anon: false, why: 'the sync engine; supabase/functions/my-directories' },
  get_my_profile: { anon: true, why: 'src/backend/profile.ts (answers 403 without a session)' },
  username_available: { anon: true, why: 'src/backend/auth.ts: the sign-up form checks a name' },
  claim_username: { anon: false, why: 'src/backend/auth.ts: after sign-up' },
  update_my_profile: {
    anon: false,
    why: "the profile RPC of the contract (docs/product.md, Decisions); the caller's own row",
  },
  submit_contact_message: { anon: true, why: 'src/features/marketing: the contact form' },
  get_public_directory: { anon: true, why: 'src/features/public; supabase/functions/public-directory' },
  get_public_profile: { anon: true, why: 'src/features/public' },
  create_calendar_feed: { anon: false, why: 'src/backend/calendar-feed.ts: a new private feed address (Pro)' },
  revoke_calendar_feed: { anon: false, why: "src/backend/calendar-feed.ts: turns the caller's feed off" },
  calendar_feed_status: { anon: false, why: "src/backend/calendar-feed.ts: whether the caller's feed is on" },
  save_push_subscription: { anon: false, why: "src/backend/push-reminders.ts: this device's reminder pushes" },
  delete_push_subscription: { anon: false, why: "src/backend/push-reminders.ts: the caller's own device only" },
};
