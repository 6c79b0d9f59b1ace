/**
 * The mutation contract (docs/sync-protocol.md), in one place: every mutation's name and the
 * schema of its args. Names are added, never renamed; `npm run db:registry` writes the server's
 * list (private.sync_mutation_names) from this file. Args are absolute values only. The
 * schemas are the boundary check (mutate, and outbox entries read back from IndexedDB) and give
 * the TypeScript types, so the two cannot drift. They check shapes and types only, and that every
 * string can be stored (src/domain/storable-text.ts): the rules (lengths, plan limits, roles) are
 * the mutators', with the wording of docs/product.md.
 */
import * as v from 'valibot';
import {
  directoryColors,
  memberRoles,
  priorities,
  recurrenceRules,
  reminderOffsets,
  slotAnswers,
  themeChoices,
} from './validation.ts';
import { isStorableText } from './storable-text.ts';

/** Every string of the args: one the database can store (no NUL character, no lone surrogate). */
const text = v.pipe(v.string(), v.check(isStorableText, 'holds a character that cannot be saved'));
const id = text;
const optionalText = v.optional(v.nullable(text));
const color = v.picklist(directoryColors);
const role = v.picklist(memberRoles);
const priority = v.nullable(v.picklist(priorities));
/** Minutes before the start that a reminder fires; null: none; absent: unchanged (or none when created). */
const reminder = v.optional(v.nullable(v.picklist(reminderOffsets)));
/** Whole days from the local midnight of starts_at (docs/architecture.md); absent: false, or unchanged. */
const allDay = v.optional(v.boolean());

const occurrence = v.object({
  id,
  title: text,
  description: v.nullable(text),
  starts_at: text,
  ends_at: text,
});
export type Occurrence = v.InferOutput<typeof occurrence>;

const series = {
  series_id: id,
  rule: v.picklist(recurrenceRules),
  until: text,
  occurrences: v.array(occurrence),
  /** Every occurrence gets it, so each reminds like a single event. */
  reminder_minutes: reminder,
  /** Whole-day occurrences (absent: false). */
  all_day: allDay,
};

export const mutationContract = {
  'profile.update': v.object({
    username: optionalText,
    bio: optionalText,
    full_name: optionalText,
    time_zone: v.optional(text),
    /** The reminder new events and tasks start with. */
    default_reminder_minutes: reminder,
    /** Light, dark, or follow the system. */
    theme: v.optional(v.picklist(themeChoices)),
  }),
  'directory.create': v.object({
    id,
    name: text,
    description: optionalText,
    color: v.optional(color),
    is_public: v.optional(v.boolean()),
    password: optionalText,
  }),
  'directory.update': v.object({
    id,
    name: v.optional(text),
    description: optionalText,
    color: v.optional(color),
    is_public: v.optional(v.boolean()),
    password: optionalText,
  }),
  'directory.delete': v.object({ id }),
  'link.create': v.object({
    id,
    directory_id: id,
    url: text,
    title: text,
    notes: optionalText,
    description: optionalText,
    tags: v.optional(v.array(text)),
    is_favorite: v.optional(v.boolean()),
    /** An imported bookmark's ADD_DATE (an ISO instant); absent or null means now. */
    created_at: optionalText,
  }),
  'link.update': v.object({
    id,
    url: v.optional(text),
    title: v.optional(text),
    notes: optionalText,
    description: optionalText,
    tags: v.optional(v.array(text)),
  }),
  'link.delete': v.object({ id }),
  'link.set_favorite': v.object({ id, value: v.boolean() }),
  'member.invite': v.object({ id, directory_id: id, user_email: text, role }),
  'member.set_role': v.object({ id, role }),
  'member.remove': v.object({ id }),
  'event.create': v.object({
    id,
    title: text,
    description: optionalText,
    starts_at: v.nullable(text),
    ends_at: v.nullable(text),
    is_task: v.boolean(),
    priority: v.optional(priority),
    reminder_minutes: reminder,
    all_day: allDay,
  }),
  'event.update': v.object({
    id,
    title: v.optional(text),
    description: optionalText,
    starts_at: v.optional(v.nullable(text)),
    ends_at: v.optional(v.nullable(text)),
    /** A task becoming an event (or back); absent leaves it as it is. */
    is_task: v.optional(v.boolean()),
    priority: v.optional(priority),
    reminder_minutes: reminder,
    all_day: allDay,
  }),
  'event.delete': v.object({ id }),
  'task.set_completed': v.object({ id, value: v.boolean() }),
  'series.create': v.object(series),
  'series.replace': v.object({ old_series_id: id, ...series }),
  'series.delete': v.object({ series_id: id }),
  'occurrence.detach': v.object({
    id,
    title: v.optional(text),
    description: optionalText,
    starts_at: v.optional(text),
    ends_at: v.optional(text),
    reminder_minutes: reminder,
    all_day: allDay,
  }),
  'poll.create': v.object({
    id,
    title: text,
    description: optionalText,
    options: v.array(text),
    deadline: optionalText,
    directory_id: optionalText,
  }),
  'poll.vote': v.object({ id, post_id: id, option_index: v.number() }),
  /**
   * A 'Find a time' poll (docs/product.md, Find a time): its options are time slots, each with its own
   * id, and either a start (an instant) and a length in minutes, or a day (YYYY-MM-DD, a whole day
   * in the creator's time zone).
   */
  'poll.create_time': v.object({
    id,
    title: text,
    description: optionalText,
    deadline: optionalText,
    directory_id: optionalText,
    /** The creator's time zone (IANA): whole days are days there; voters see it named. */
    time_zone: text,
    slots: v.array(
      v.object({
        id,
        start: v.optional(v.nullable(text)),
        minutes: v.optional(v.nullable(v.number())),
        day: optionalText,
      }),
    ),
  }),
  /**
   * One slot's answer. `id` is the voter's answer row for the poll (one per voter: the row already
   * on the device, else a new id; the server keeps one row per poll and voter whatever id comes).
   */
  'poll.answer': v.object({ id, post_id: id, slot_id: id, answer: v.picklist(slotAnswers) }),
  /** The creator takes a slot off the poll, with its answers. */
  'poll.remove_slot': v.object({ id, slot_id: id }),
  /**
   * The creator picks the final slot: `event_id` is the creator's event (the poll's earlier one when
   * picked again, which then moves; a new id the first time).
   */
  'poll.pick': v.object({ id, slot_id: id, event_id: id }),
  /** Accepting makes `event_id` the invitee's own event of the picked time; declining removes it. */
  'invitation.answer': v.object({ id, accept: v.boolean(), event_id: id }),
} satisfies Record<string, v.GenericSchema>;

type Contract = typeof mutationContract;
export type MutationName = keyof Contract;

/** The contract's names, in its order (the server's list follows it). */
export const mutationNames: readonly MutationName[] = Object.freeze(Object.keys(mutationContract) as MutationName[]);

export function isMutationName(value: unknown): value is MutationName {
  return typeof value === 'string' && Object.hasOwn(mutationContract, value);
}

export type MutationArgs = { [N in MutationName]: v.InferOutput<Contract[N]> };

/**
 * Null when `args` have the shape of `name`'s args, else what is wrong ('field: message'). The
 * args themselves are never rewritten by the check.
 */
export function argsProblem(name: MutationName, args: unknown): string | null {
  const schema: v.GenericSchema = mutationContract[name];
  const result = v.safeParse(schema, args);
  if (result.success) return null;
  return result.issues
    .slice(0, 3)
    .map((issue) => `${v.getDotPath(issue) ?? 'args'}: ${issue.message}`)
    .join('; ');
}
