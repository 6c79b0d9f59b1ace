/**
 * The pieces every input schema is built of (valibot, as the client's): a JSON object that names
 * a missing field, text the database can store (src/domain/storable-text.ts) with a length limit,
 * and a choice among fixed values. Each issue's message is a clear sentence naming the field, so
 * the first one can be answered as it is (a 400's error). Pure: the Edge Functions (Deno) and the
 * local stack use it as the client does.
 */
import * as v from 'valibot';
import { isStorableText, unstorableTextMessage } from './storable-text.ts';

/** A JSON object: not null, not an array. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A JSON object with `entries`; `expected` names its shape ('{plan, billingCycle}'). A missing
 * field is `missing[key]`, or '<key> is required.'; unknown fields are dropped.
 */
export function jsonObject<const E extends v.ObjectEntries>(
  entries: E,
  expected: string,
  missing: Partial<Record<keyof E, string>> = {},
) {
  return v.pipe(
    v.custom<Record<string, unknown>>(isPlainObject, `Expected a JSON object ${expected}.`),
    v.object(entries, (issue) => {
      const key = issue.path?.[0]?.key;
      return typeof key === 'string' ? (missing[key as keyof E] ?? `${key} is required.`) : `Expected ${expected}.`;
    }),
  );
}

/** A string that is no text the database can store: the message names the field by `label`. */
export const storable = (label: string) => v.check<string, string>(isStorableText, unstorableTextMessage(label));

interface TextOptions {
  /** How the unstorable-text message names the field ('recipient address'); the key by default. */
  label?: string;
  /** At most this many characters (UTF-16 units). */
  max?: number;
  /** The message when it is no string. */
  wrongType?: string;
  /** The message when it is longer than `max`. */
  tooLong?: string;
}

/** Text in field `name`: a string the database can store, at most `max` characters. */
export function text(name: string, { label = name, max = 10_000, wrongType, tooLong }: TextOptions = {}) {
  return v.pipe(
    v.string(wrongType ?? `${name} must be text.`),
    storable(label),
    v.maxLength(max, tooLong ?? `${name} must be at most ${max} characters.`),
  );
}

/** One of `values` in field `name`; the message lists them. */
export function choice<const T extends readonly string[]>(name: string, values: T) {
  const listed = values.map((value) => `'${value}'`);
  const words = listed.length > 1 ? `${listed.slice(0, -1).join(', ')} or ${listed.at(-1)}` : (listed[0] ?? '');
  return v.picklist(values, `${name} must be ${words}.`);
}

/** The message of a failed parse: its first issue's, which names the field. */
export function firstIssue(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues[0]?.message ?? 'The input is not valid.';
}
