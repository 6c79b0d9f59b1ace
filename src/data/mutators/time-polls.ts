/**
 * 'Find a time' polls (docs/product.md, Find a time; docs/architecture.md, Polls and the dashboard):
 * create, answer a slot, remove a slot, pick the time, and answer the invitation a pick makes.
 * The checks are the server's, in its order and words; the counts are the server's, and a voter's
 * pending answers are laid over them through the answers row's `local_base`.
 */
import { isPollOpen } from '../../domain/polls.ts';
import { messages } from '../../domain/sync-codes.ts';
import { isValidSlot, slotRange, TIME_SLOTS_MAX, TIME_SLOTS_MIN } from '../../domain/time-slots.ts';
import { isBlank, isValidTimeZone, parseInstant } from '../../domain/validation.ts';
import type { MutationArgs } from '../../domain/mutation-contract.ts';
import { directoryOrRefuse, roleIn } from '../access.ts';
import { refuse } from '../mutation-error.ts';
import { stamp, type LinkboardTx, type Mutator } from '../mutator.ts';
import type { MutationContext } from '../mutation-context.ts';
import type { EventRow, InvitationRow, PollRow, SlotAnswersRow } from '../rows.ts';
import { groupTarget, rowTarget } from '../targets.ts';
import { checkPollQuota } from './polls.ts';

/** A time poll that is open: before its deadline, active, and not picked yet. */
export function isTimePollOpen(poll: PollRow, now: Date): boolean {
  return isPollOpen(poll, now) && !poll.picked_slot_id;
}

async function pollOrRefuse(tx: LinkboardTx, id: string): Promise<PollRow> {
  const poll = await tx.voting_posts.get(id);
  return poll && !poll.deleted_at ? poll : refuse('not_found', messages.pollNotFound);
}

function slotOf(poll: PollRow, slotId: string) {
  return poll.kind === 'time' ? poll.options.find((option) => option.id === slotId) : undefined;
}

export const pollCreateTime: Mutator<'poll.create_time'> = {
  tables: ['voting_posts', 'link_directories', 'directory_members', 'user_profiles'],
  targets: (args) => [rowTarget('voting_posts', args.id)],
  async validate(tx, args, ctx) {
    if (isBlank(args.title)) refuse('invalid', messages.linkTitle);
    if (!Array.isArray(args.slots) || args.slots.length < TIME_SLOTS_MIN) refuse('invalid', messages.timeSlotsMin);
    if (args.slots.length > TIME_SLOTS_MAX) refuse('invalid', messages.timeSlotsMax);
    const ids = new Set(args.slots.map((slot) => slot.id));
    if (ids.size !== args.slots.length || !args.slots.every(isValidSlot)) refuse('invalid', messages.timeSlot);
    if (!isValidTimeZone(args.time_zone)) refuse('invalid', messages.timeZone);
    const deadline = parseInstant(args.deadline);
    if (deadline === 'invalid') refuse('invalid', messages.invalidDate);
    if (deadline !== null && deadline <= ctx.now().getTime()) refuse('invalid', messages.pollDeadline);
    await checkPollQuota(tx, args.directory_id ?? null, ctx);
    return {
      ...args,
      title: args.title.trim(),
      description: args.description === '' ? null : (args.description ?? null),
      deadline: args.deadline ?? null,
      directory_id: args.directory_id ?? null,
    };
  },
  async apply(tx, args, ctx) {
    const profile = await tx.user_profiles.get(ctx.userId);
    await tx.voting_posts.put({
      id: args.id,
      title: args.title,
      description: args.description ?? null,
      options: args.slots.map((slot) => ({
        id: slot.id,
        text: slot.day ?? slot.start ?? '',
        votes: 0,
        start: slot.day ? null : (slot.start ?? null),
        minutes: slot.day ? null : (slot.minutes ?? null),
        day: slot.day ?? null,
        yes: 0,
        maybe: 0,
      })),
      deadline: args.deadline ?? null,
      directory_id: args.directory_id ?? null,
      created_by: profile?.username ?? null,
      created_by_id: ctx.userId,
      is_active: true,
      kind: 'time',
      time_zone: args.time_zone,
      picked_slot_id: null,
      picked_event_id: null,
      pick_count: 0,
      ...stamp(ctx),
    });
  },
};

/**
 * The voter's row with one slot's answer merged in. `local_base` stays the answers of the last
 * row from the server (a row without `local_base`): those are in the poll's counts already.
 */
export function withAnswer(
  held: SlotAnswersRow | undefined,
  args: MutationArgs['poll.answer'],
  ctx: MutationContext,
  extra: { directory_id: string | null; voter_name: string | null },
): SlotAnswersRow {
  const now = ctx.now().toISOString();
  if (!held) {
    return {
      id: args.id,
      post_id: args.post_id,
      user_id: ctx.userId,
      ...extra,
      answers: { [args.slot_id]: args.answer },
      local_base: {},
      created_at: now,
      updated_at: now,
    };
  }
  return {
    ...held,
    answers: { ...held.answers, [args.slot_id]: args.answer },
    local_base: held.local_base ?? held.answers,
    updated_at: now,
  };
}

export const pollAnswer: Mutator<'poll.answer'> = {
  tables: ['voting_posts', 'slot_answers', 'link_directories', 'directory_members', 'user_profiles'],
  // The voter's row (whatever id the server keeps: every answers row of the poll) and the poll.
  targets: (args) => [
    rowTarget('slot_answers', args.id),
    groupTarget('slot_answers', 'post_id', args.post_id),
    rowTarget('voting_posts', args.post_id),
  ],
  async validate(tx, args, ctx) {
    const poll = await pollOrRefuse(tx, args.post_id);
    if (poll.directory_id) {
      const directory = await directoryOrRefuse(tx, poll.directory_id);
      if (!(await roleIn(tx, directory, ctx))) refuse('forbidden', messages.noDirectoryAccess);
    }
    if (!isTimePollOpen(poll, ctx.now())) refuse('poll_closed', messages.pollClosed);
    if (!slotOf(poll, args.slot_id)) refuse('not_found', messages.slotGone);
    return args;
  },
  /** Merges the answer into the voter's one row for the poll; any other row of theirs goes. */
  async apply(tx, args, ctx) {
    const poll = await tx.voting_posts.get(args.post_id);
    const rows = await tx.slot_answers.where('[post_id+user_id]').equals([args.post_id, ctx.userId]).toArray();
    // The server's row when there is one (its id is the one the server keeps), else the device's.
    const held = rows.find((row) => !row.local_base) ?? rows.find((row) => row.id === args.id) ?? rows[0];
    const profile = held ? undefined : await tx.user_profiles.get(ctx.userId);
    const row = withAnswer(held, args, ctx, {
      directory_id: poll?.directory_id ?? null,
      voter_name: profile?.username || profile?.full_name || null,
    });
    await tx.slot_answers.put(row);
    const others = rows.filter((other) => other.id !== row.id).map((other) => other.id);
    if (others.length > 0) await tx.slot_answers.bulkDelete(others);
  },
  /** The voter's row as it will be: the grid's cell and the counts repaint in the click's frame. */
  predict(args, ctx, known) {
    if (known.row('slot_answers', args.id)) {
      return [
        {
          table: 'slot_answers',
          key: args.id,
          update: (row) => withAnswer(row as SlotAnswersRow, args, ctx, { directory_id: null, voter_name: null }),
        },
      ];
    }
    return [
      {
        table: 'slot_answers',
        key: args.id,
        row: withAnswer(undefined, args, ctx, { directory_id: null, voter_name: null }),
      },
    ];
  },
};

async function creatorsPoll(tx: LinkboardTx, id: string, ctx: MutationContext, message: string): Promise<PollRow> {
  const poll = await pollOrRefuse(tx, id);
  if (poll.created_by_id !== ctx.userId) refuse('forbidden', message);
  return poll;
}

export const pollRemoveSlot: Mutator<'poll.remove_slot'> = {
  tables: ['voting_posts', 'slot_answers'],
  targets: (args) => [rowTarget('voting_posts', args.id), groupTarget('slot_answers', 'post_id', args.id)],
  async validate(tx, args, ctx) {
    const poll = await creatorsPoll(tx, args.id, ctx, messages.removeCreatorOnly);
    if (!slotOf(poll, args.slot_id)) refuse('not_found', messages.slotGone);
    if (poll.options.length <= 1) refuse('invalid', messages.lastSlot);
    return args;
  },
  /** The slot leaves the poll, and its answers leave every answers row of the poll. */
  async apply(tx, args) {
    const poll = await tx.voting_posts.get(args.id);
    if (poll && poll.options.some((option) => option.id === args.slot_id)) {
      await tx.voting_posts.put({ ...poll, options: poll.options.filter((option) => option.id !== args.slot_id) });
    }
    const rows = await tx.slot_answers.where('post_id').equals(args.id).toArray();
    const changed = rows
      .filter((row) => args.slot_id in row.answers || (row.local_base && args.slot_id in row.local_base))
      .map((row) => ({
        ...row,
        answers: without(row.answers, args.slot_id),
        ...(row.local_base ? { local_base: without(row.local_base, args.slot_id) } : {}),
      }));
    if (changed.length > 0) await tx.slot_answers.bulkPut(changed);
  },
};

function without<T>(record: Readonly<Record<string, T>>, key: string): Record<string, T> {
  const out = { ...record };
  delete out[key];
  return out;
}

/** An event of the user's at the picked time (docs/product.md, Find a time), or `held` moved there. */
function eventAt(
  held: EventRow | undefined,
  id: string,
  what: { title: string; description: string | null },
  range: { starts_at: string; ends_at: string; all_day: boolean },
  ctx: MutationContext,
): EventRow {
  if (held) return { ...held, ...range, updated_at: ctx.now().toISOString() };
  return {
    id,
    title: what.title,
    description: what.description,
    ...range,
    owner_id: ctx.userId,
    is_task: false,
    priority: null,
    is_completed: false,
    series_id: null,
    recurrence_rule: 'none',
    recurrence_end_date: null,
    reminder_minutes: null,
    ...stamp(ctx),
  };
}

export const pollPick: Mutator<'poll.pick'> = {
  tables: ['voting_posts', 'calendar_events'],
  targets: (args) => [rowTarget('voting_posts', args.id), rowTarget('calendar_events', args.event_id)],
  async validate(tx, args, ctx) {
    const poll = await creatorsPoll(tx, args.id, ctx, messages.pickCreatorOnly);
    if (!slotOf(poll, args.slot_id)) refuse('not_found', messages.slotGone);
    return args;
  },
  /** The poll picked (so closed) and the creator's event made, or moved to the picked slot. */
  async apply(tx, args, ctx) {
    const poll = await tx.voting_posts.get(args.id);
    const slot = poll && slotOf(poll, args.slot_id);
    const range = slot && slotRange(slot, poll.time_zone);
    if (!poll || !range) return;
    await tx.voting_posts.put({ ...poll, picked_slot_id: args.slot_id, picked_event_id: args.event_id });
    const held = await tx.calendar_events.get(args.event_id);
    await tx.calendar_events.put(eventAt(held, args.event_id, poll, range, ctx));
  },
};

async function invitationOrRefuse(tx: LinkboardTx, id: string, ctx: MutationContext): Promise<InvitationRow> {
  const invitation = await tx.event_invitations.get(id);
  return invitation && !invitation.deleted_at && invitation.user_id === ctx.userId
    ? invitation
    : refuse('not_found', messages.invitationGone);
}

export const invitationAnswer: Mutator<'invitation.answer'> = {
  tables: ['event_invitations', 'calendar_events'],
  targets: (args) => [rowTarget('event_invitations', args.id), rowTarget('calendar_events', args.event_id)],
  async validate(tx, args, ctx) {
    await invitationOrRefuse(tx, args.id, ctx);
    return args;
  },
  /** Accept: the invitee's own event of the picked time, and the invitation accepted; decline: neither. */
  async apply(tx, args, ctx) {
    const invitation = await tx.event_invitations.get(args.id);
    if (!invitation) return;
    const now = ctx.now().toISOString();
    if (args.accept) {
      await tx.event_invitations.put({ ...invitation, status: 'accepted', event_id: args.event_id, updated_at: now });
      const held = await tx.calendar_events.get(args.event_id);
      const range = { starts_at: invitation.starts_at, ends_at: invitation.ends_at, all_day: invitation.all_day };
      await tx.calendar_events.put(eventAt(held, args.event_id, invitation, range, ctx));
    } else {
      await tx.event_invitations.put({ ...invitation, status: 'declined', event_id: null, updated_at: now });
      await tx.calendar_events.delete(args.event_id);
    }
  },
};
