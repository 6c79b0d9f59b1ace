/**
 * The functions' check of the text they are given (docs/architecture.md, Text the database can
 * store): a NUL character or a lone surrogate in any of it is a 400 with a clear message, decided
 * before anything is queued or sent on. Runs on Deno and Node alike (no Node-only imports).
 */
import { findUnstorableText, unstorableTextMessage } from '../../../src/domain/storable-text.ts';

/**
 * The 400's message when a field's text (a string, or strings nested in it) cannot be stored;
 * null when every field's can. `fields` maps the label the message names to the value given.
 */
export function unstorableInput(fields: Record<string, unknown>): string | null {
  for (const [label, value] of Object.entries(fields)) {
    const found = findUnstorableText(value);
    if (found !== null) return unstorableTextMessage(found.path === '' ? label : `${label}.${found.path}`);
  }
  return null;
}
