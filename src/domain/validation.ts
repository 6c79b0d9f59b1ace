/** Pure validation helpers shared by the client mutators (docs/product.md, Validation, docs/product.md, Decisions). */
export const directoryColors = ['blue', 'purple', 'green', 'orange', 'pink', 'indigo'] as const;
export type DirectoryColor = (typeof directoryColors)[number];

/** Reminder offsets in minutes before an event or task starts: at the time, 5, 15, 30 minutes, 1 hour, 1 day. */
export const reminderOffsets = [0, 5, 15, 30, 60, 1440] as const;
/** The app's theme (docs/product.md, Profile): light, dark, or whatever the system uses. */
export const themeChoices = ['light', 'dark', 'system'] as const;
export type ThemeChoice = (typeof themeChoices)[number];
export type ReminderOffset = (typeof reminderOffsets)[number];
/** Null (no reminder) or one of the offsets; undefined (not given) passes too. */
export const isReminderChoice = (value: unknown): boolean =>
  value == null || (reminderOffsets as readonly unknown[]).includes(value);

export const priorities = ['low', 'medium', 'high'] as const;
export type Priority = (typeof priorities)[number];

export const memberRoles = ['viewer', 'editor'] as const;
export type MemberRole = (typeof memberRoles)[number];

export const recurrenceRules = ['daily', 'weekly', 'monthly'] as const;
/** A 'Find a time' poll's answer to one slot (docs/product.md, Find a time). */
export const slotAnswers = ['yes', 'maybe', 'no'] as const;
export type SlotAnswer = (typeof slotAnswers)[number];
export const invitationStatuses = ['pending', 'accepted', 'declined'] as const;
export type RecurrenceRule = (typeof recurrenceRules)[number];

export const POLL_OPTIONS_MIN = 2;
export const POLL_OPTIONS_MAX = 6;
export const SERIES_MAX = 1000;
export const TAG_MAX = 50;

export function isOneOf<T extends string>(values: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (values as readonly string[]).includes(value);
}

/** Empty strings become null, recursively through objects and arrays (docs/product.md, Records, User). */
export function emptyToNull<T>(value: T): T {
  if (value === '') return null as T;
  if (Array.isArray(value)) return value.map((item) => emptyToNull(item)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, emptyToNull(item)])) as T;
  }
  return value;
}

export function isBlank(value: string | null | undefined): boolean {
  return value === null || value === undefined || value.trim() === '';
}

const SCHEME = /^([a-z][a-z0-9+.-]*):(?!\d)/i;
const HTTP = /^https?:\/\/\S+$/i;

/**
 * The url as saved: trimmed, with 'https://' prepended when it has no scheme (docs/product.md, Validation).
 * Returns null when it is not an http or https url (docs/product.md, Decisions).
 */
export function normalizeUrl(input: string): string | null {
  const url = input.trim();
  if (url === '') return null;
  const withScheme = /^https?:\/\//i.test(url) ? url : SCHEME.test(url) ? null : `https://${url}`;
  if (withScheme === null || !HTTP.test(withScheme) || withScheme.length > 2048) return null;
  try {
    const parsed = new URL(withScheme);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? withScheme : null;
  } catch {
    return null;
  }
}

/** Tags trimmed, empty ones dropped, duplicates ignored, first occurrence kept (docs/product.md, Validation). */
export function cleanTags(tags: readonly string[] | null | undefined): string[] {
  const seen = new Set<string>();
  for (const tag of tags ?? []) {
    const trimmed = tag.trim();
    if (trimmed !== '') seen.add(trimmed);
  }
  return [...seen];
}

/** Poll options as kept: trimmed, the first two required, empty ones dropped, 2 to 6; null when invalid. */
export function cleanPollOptions(options: readonly string[]): string[] | null {
  const trimmed = options.map((option) => option.trim());
  if (isBlank(trimmed[0]) || isBlank(trimmed[1])) return null;
  const kept = trimmed.filter((option) => option !== '');
  return kept.length >= POLL_OPTIONS_MIN && kept.length <= POLL_OPTIONS_MAX && kept.every((o) => o.length <= 200)
    ? kept
    : null;
}

const EMAIL = /^[^@\s]+@[^@\s]+$/;

export function isEmail(value: string): boolean {
  return EMAIL.test(value.trim()) && value.trim().length <= 320;
}

export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.length > 0 && zone.length <= 64;
  } catch {
    return false;
  }
}

/** An ISO timestamp that parses, or null for null/undefined; throws nothing. */
export function parseInstant(value: string | null | undefined): number | null | 'invalid' {
  if (value === null || value === undefined) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? 'invalid' : time;
}

/** The earliest creation time a link may be given (an imported bookmark's ADD_DATE); the server's too. */
export const CREATED_AT_MIN = Date.UTC(1990, 0, 1);
/** How far ahead of now a given creation time may be (clock skew); it is then clamped to now. */
export const CLOCK_SKEW_MS = 60_000;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)$/;

/**
 * A link's given creation time as kept: an ISO instant with its offset, from 1990 on, at most a
 * minute ahead (clamped to now), as ISO in UTC. Null when the server would refuse it.
 */
export function creationTime(value: string, now: Date): string | null {
  const time = ISO_INSTANT.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(time) || time < CREATED_AT_MIN || time > now.getTime() + CLOCK_SKEW_MS) return null;
  return new Date(Math.min(time, now.getTime())).toISOString();
}
