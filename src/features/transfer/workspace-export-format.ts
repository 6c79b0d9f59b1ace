/**
 * The shape of a Linkboard export file (docs/export-format.md), as valibot schemas that give
 * the TypeScript types. The file carries only columns the server keeps: local-only fields
 * (`owner_tier`, `local_votes`) and sync internals (`txid`, `deleted_at`) are never part of it.
 *
 * Version rule: a writer of version 1 may add fields (readers drop the ones they do not know,
 * `v.object` leaves them out); removing or renaming a field, or changing what one means, raises
 * EXPORT_VERSION. A reader accepts its own version and older ones, never newer ones.
 */
import * as v from 'valibot';
import {
  directoryColors,
  invitationStatuses,
  memberRoles,
  priorities,
  recurrenceRules,
  reminderOffsets,
  slotAnswers,
  themeChoices,
} from '../../domain/validation.ts';

export const EXPORT_FORMAT = 'linkboard-export';
export const EXPORT_VERSION = 1;

const text = v.string();
const nullableText = v.nullable(v.string());
/** An ISO 8601 instant as the server writes it. */
const instant = v.string();

const stamps = { created_at: instant, updated_at: instant };

export const exportProfile = v.object({
  id: text,
  email: nullableText,
  full_name: text,
  username: nullableText,
  bio: text,
  subscription_tier: v.picklist(['free', 'pro', 'team']),
  time_zone: text,
  /** Minutes before the start new events and tasks remind (null: none); absent in older files. */
  default_reminder_minutes: v.optional(v.nullable(v.picklist(reminderOffsets)), null),
  /** Light, dark or system; absent in older files. */
  theme: v.optional(v.picklist(themeChoices), 'system'),
  /** The paid plan's cycle, period end and cancellation (informative, like the tier); absent in older files. */
  billing_cycle: v.optional(v.nullable(v.picklist(['monthly', 'yearly'])), null),
  plan_period_end: v.optional(nullableText, null),
  plan_cancel_at_period_end: v.optional(v.boolean(), false),
});

export const exportLink = v.object({
  id: text,
  url: text,
  title: text,
  notes: nullableText,
  description: nullableText,
  tags: v.array(v.string()),
  is_favorite: v.boolean(),
  created_by: nullableText,
  // What the server read of the page, and the broken-link mark; absent in files of older apps.
  site_name: v.optional(nullableText, null),
  icon_url: v.optional(nullableText, null),
  image_url: v.optional(nullableText, null),
  preview_state: v.optional(v.nullable(v.picklist(['done', 'failed'])), null),
  previewed_at: v.optional(nullableText, null),
  broken_at: v.optional(nullableText, null),
  ...stamps,
});

const directoryFields = {
  id: text,
  name: text,
  description: nullableText,
  color: v.picklist(directoryColors),
  is_public: v.boolean(),
  has_password: v.boolean(),
  ...stamps,
  links: v.array(exportLink),
};

export const exportDirectory = v.object(directoryFields);

/** A directory someone else owns and shared with the user: exported for reading, never imported as the user's. */
export const exportSharedDirectory = v.object({
  ...directoryFields,
  owner_id: text,
  /** The user's role in it, when the invitation is on this device. */
  role: v.nullable(v.picklist(memberRoles)),
  read_only: v.literal(true),
});

export const exportEvent = v.object({
  id: text,
  title: text,
  description: nullableText,
  starts_at: nullableText,
  ends_at: nullableText,
  is_task: v.boolean(),
  priority: v.nullable(v.picklist(priorities)),
  is_completed: v.boolean(),
  series_id: nullableText,
  recurrence_rule: v.picklist(['none', ...recurrenceRules]),
  recurrence_end_date: nullableText,
  /** Minutes before the start it reminds (null: none); absent in older files. */
  reminder_minutes: v.optional(v.nullable(v.picklist(reminderOffsets)), null),
  /** Whole days from the local midnight of starts_at; absent in older files (false). */
  all_day: v.optional(v.boolean(), false),
  ...stamps,
});

export const exportPoll = v.object({
  id: text,
  title: text,
  description: nullableText,
  /** A time poll's options are its slots: their id, start and minutes or day, and Yes and If need be counts. */
  options: v.array(
    v.object({
      text: v.string(),
      votes: v.number(),
      id: v.optional(v.string()),
      start: v.optional(nullableText),
      minutes: v.optional(v.nullable(v.number())),
      day: v.optional(nullableText),
      yes: v.optional(v.number()),
      maybe: v.optional(v.number()),
    }),
  ),
  deadline: nullableText,
  directory_id: nullableText,
  is_active: v.boolean(),
  /** 'choice' or 'time' (docs/product.md, Find a time); absent in files of older apps: choice. */
  kind: v.optional(v.picklist(['choice', 'time'])),
  time_zone: v.optional(nullableText),
  picked_slot_id: v.optional(nullableText),
  picked_event_id: v.optional(nullableText),
  pick_count: v.optional(v.number()),
  ...stamps,
});

export const exportVote = v.object({
  id: text,
  poll_id: text,
  option_index: v.number(),
  /** The option's text when the poll is on this device, else null. */
  option_text: nullableText,
  poll_title: nullableText,
  created_at: instant,
});

export const exportMember = v.object({
  id: text,
  directory_id: text,
  email: text,
  role: v.picklist(memberRoles),
  created_at: instant,
});

/** The user's answers to a 'Find a time' poll: each slot's answer, with the slot's time when the poll is on the device. */
export const exportAnswers = v.object({
  id: text,
  poll_id: text,
  /** The poll's title when the poll is on this device, else null. */
  poll_title: nullableText,
  /** The team directory of a team poll, null for a public one. */
  directory_id: nullableText,
  answers: v.array(
    v.object({
      slot_id: text,
      answer: v.picklist(slotAnswers),
      start: nullableText,
      minutes: v.nullable(v.number()),
      day: nullableText,
    }),
  ),
  ...stamps,
});

/** A time picked in someone's 'Find a time' poll, offered to the user: pending, accepted or declined. */
export const exportInvitation = v.object({
  id: text,
  poll_id: nullableText,
  inviter_name: nullableText,
  title: text,
  description: nullableText,
  starts_at: instant,
  ends_at: instant,
  all_day: v.boolean(),
  status: v.picklist(invitationStatuses),
  /** The event made in the user's calendar when accepted, else null. */
  event_id: nullableText,
  ...stamps,
});

export const workspaceExportSchema = v.object({
  format: v.literal(EXPORT_FORMAT),
  version: v.literal(EXPORT_VERSION),
  exported_at: instant,
  profile: exportProfile,
  directories: v.array(exportDirectory),
  shared_directories: v.array(exportSharedDirectory),
  events: v.array(exportEvent),
  polls: v.array(exportPoll),
  votes: v.array(exportVote),
  members: v.array(exportMember),
  /** Absent in files of older apps: none. */
  answers: v.optional(v.array(exportAnswers), []),
  invitations: v.optional(v.array(exportInvitation), []),
});

export type WorkspaceExport = v.InferOutput<typeof workspaceExportSchema>;
export type ExportProfile = v.InferOutput<typeof exportProfile>;
export type ExportDirectory = v.InferOutput<typeof exportDirectory>;
export type ExportSharedDirectory = v.InferOutput<typeof exportSharedDirectory>;
export type ExportLink = v.InferOutput<typeof exportLink>;
export type ExportEvent = v.InferOutput<typeof exportEvent>;
export type ExportPoll = v.InferOutput<typeof exportPoll>;
export type ExportVote = v.InferOutput<typeof exportVote>;
export type ExportMember = v.InferOutput<typeof exportMember>;
export type ExportAnswers = v.InferOutput<typeof exportAnswers>;
export type ExportInvitation = v.InferOutput<typeof exportInvitation>;
