/**
 * The functions in schema private that a client role may execute, and why. Schema private is
 * not exposed by the API (supabase/config.toml `schemas`, supabase/local/rest-rpc.ts), so these are
 * reachable only from SQL that runs as the caller: a row-level security policy, or the sync
 * entry points sync_push and sync_pull, which run as the caller so that row-level security
 * applies to every row they read or write. tests/db/rpc-surface.test.ts fails on any other, and
 * on an entry here that no longer needs its right.
 *
 * - `policy`: a policy names it (checked against pg_policies). Security definer; it answers only
 *   about the caller.
 * - `caller`: security invoker, called by sync_push or sync_pull: it runs with the caller's own
 *   rights, so executing it gives nothing the caller could not do with plain SQL.
 * - `definer`: security definer, called by sync_push or sync_pull (which run as the caller, so
 *   the caller needs the right); it acts only on the caller's own rows or answers only about them.
 */
export type ExecutableKind = 'policy' | 'caller' | 'definer';

export interface PrivateExecutable {
  kind: ExecutableKind;
  why: string;
}

const caller = (why: string): PrivateExecutable => ({ kind: 'caller', why });
const policy = (why: string): PrivateExecutable => ({ kind: 'policy', why });
const definer = (why: string): PrivateExecutable => ({ kind: 'definer', why });

/** By function name (none is overloaded); `anon` executes none of them. */
export const PRIVATE_EXECUTABLES: Record<string, PrivateExecutable> = {
  // Named by row-level security policies (supabase/schemas/rls.sql).
  confirmed_email: policy('directory_members_select: the invitations to the caller; sync_pull binds them too'),
  is_directory_owner: policy('directory_members insert, update and delete: the directory is the caller’s'),
  can_edit_directory: policy('saved_links insert, update and delete: the caller owns or edits the directory'),
  can_view_directory: policy('voting_posts_insert: a team poll in a directory the caller sees'),
  can_see_post: policy('user_votes_insert: a vote on a poll the caller sees'),
  viewable_directory_ids: policy('the select policies of directories, links, members and polls'),

  // Security definer, called by the sync path as the caller.
  set_directory_password: definer('directory.create and directory.update; owner only, the hash stays server-side'),
  sync_insert_allowed: definer('link.create and member.invite: forbidden before the plan limits; raises or nothing'),
  sync_directory_owners: definer('the owner_tier of directories the caller sees (push answers and pulls)'),
  sync_record_answer: definer("records the answer of the caller's own mutation id"),
  sync_recorded_answer: definer("reads the recorded answer of the caller's own mutation id"),
  sync_any_recorded: definer(
    "whether any of the caller's own mutation ids has a recorded answer (a run of link.create)",
  ),
  sync_record_answers: definer("records the answers of the caller's own mutation ids (a run of link.create)"),
  sync_purge_my_answers: definer("each push deletes the caller's own answers past retention"),
  sync_poke_send: definer("each push broadcasts 'poke' (no data) on the topics its own applied results concern"),
  poll_remove_slot: definer("poll.remove_slot: the caller's own time poll; strips the slot's answers, recounts"),
  poll_pick: definer("poll.pick: the caller's own time poll; its event, invitations and mail"),
  invitation_answer: definer("invitation.answer: the caller's own invitation and event"),

  // Security invoker: the sync path and the rule triggers, with the caller's own rights.
  sync_push_one: caller('sync_push: one mutation in its savepoint'),
  sync_push_link_run: caller('sync_push: a run of link.create in one savepoint'),
  sync_apply: caller('sync_push: dispatches a mutation to its family'),
  sync_apply_directory: caller('sync_push: directory.*'),
  sync_apply_event: caller('sync_push: event.*, task.*, occurrence.*'),
  sync_apply_link: caller('sync_push: link.*'),
  sync_apply_member: caller('sync_push: member.*'),
  sync_apply_poll: caller('sync_push: poll.*'),
  sync_apply_profile: caller('sync_push: profile.update'),
  sync_apply_series: caller('sync_push: series.*'),
  sync_insert_series: caller('sync_push: the occurrences of series.create and series.replace'),
  sync_canonical: caller('sync_push: the canonical rows of an answer, read under RLS'),
  sync_touched: caller('sync_push: the rows a mutation names'),
  sync_missing: caller('sync_push: not_found or forbidden for a row the caller cannot change'),
  sync_error_code: caller('sync_push: the answer code of an error'),
  sync_fallback_message: caller('sync_push: the wording of an unexpected refusal'),
  sync_mutation_names: caller('sync_push: the known mutation names'),
  sync_answer_retention: caller('sync_push: how long answers are kept'),
  sync_uuid: caller('sync_push: reads an argument'),
  sync_opt_uuid: caller('sync_push: reads an argument'),
  sync_text: caller('sync_push: reads an argument'),
  sync_text_array: caller('sync_push: reads an argument'),
  sync_bool: caller('sync_push: reads an argument'),
  sync_time: caller('sync_push: reads an argument'),
  sync_created_at: caller('sync_push: reads an argument'),
  sync_reminder: caller('sync_push: reads an argument'),
  sync_theme: caller('sync_push: reads an argument'),
  sync_synced_tables: caller('sync_push and sync_pull: the synced tables'),
  sync_pull_cursor: caller('sync_pull: the cursor'),
  sync_pull_page: caller('sync_pull: one page, read under RLS'),
  sync_scratch_page: caller('sync_pull: one page of a pull from scratch, read under RLS'),
  longest_item: caller('the text_limits trigger, which runs as the writer'),
  longest_option: caller('the text_limits trigger, which runs as the writer'),
};
