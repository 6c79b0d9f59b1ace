/**
 * Text the database can store. PostgreSQL's text holds no NUL character (U+0000), and a lone
 * surrogate (half of a UTF-16 pair, as a cut emoji leaves behind) is no character at all: jsonb
 * refuses both, and UTF-8 cannot encode the second. Such text is refused where it enters (forms,
 * mutate, the functions, the local stack's API) with a clear message, never sent to be refused
 * by the database. Pure and dependency-free: the Edge Functions (Deno) use it too.
 */

/** What makes text unstorable: a NUL character, or a lone surrogate. */
export type TextFault = 'nul' | 'surrogate';

/** The first fault in `value`, or null when it can be stored. */
export function textFault(value: string): TextFault | null {
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit === 0) return 'nul';
    if (unit < 0xd800 || unit > 0xdfff) continue;
    // A high surrogate must be followed by a low one, which is then skipped; a low one alone is lone.
    const next = value.charCodeAt(i + 1);
    if (unit > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return 'surrogate';
    i++;
  }
  return null;
}

/** Whether `value` holds neither a NUL character nor a lone surrogate. */
export function isStorableText(value: string): boolean {
  return textFault(value) === null;
}

/**
 * Where a JSON value holds unstorable text: the dot path of such a string (or key), '' for the
 * value itself, and its fault; null when there is none. Iterative, so any nesting depth is safe.
 */
export function findUnstorableText(value: unknown): { path: string; fault: TextFault } | null {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length > 0) {
    const [item, path] = stack.pop() as [unknown, string];
    if (typeof item === 'string') {
      const fault = textFault(item);
      if (fault !== null) return { path, fault };
      continue;
    }
    if (typeof item !== 'object' || item === null) continue;
    const entries: [string, unknown][] = Array.isArray(item)
      ? item.map((child, index) => [String(index), child])
      : Object.entries(item);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i] as [string, unknown];
      const at = path ? `${path}.${key}` : key;
      const fault = textFault(key);
      if (fault !== null) return { path: at, fault };
      stack.push([child, at]);
    }
  }
  return null;
}

/** The message for unstorable text in a field, named by its label ('Title') or its path ('occurrences.0.title'). */
export function unstorableTextMessage(field: string): string {
  const name = field.split('.').findLast((part) => !/^\d+$/.test(part)) ?? '';
  const label = name.replaceAll('_', ' ').trim() || 'this text';
  return `A character in ${label} cannot be saved (a null character or half of an emoji). Remove it and try again.`;
}

/** `value` cut to at most `max` UTF-16 units without cutting a surrogate pair in half (an emoji). */
export function cutText(value: string, max: number): string {
  if (value.length <= max) return value;
  const last = value.charCodeAt(max - 1);
  return value.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * `value` made storable, for text the user did not type (an import file): NUL characters dropped and
 * each lone surrogate replaced by U+FFFD, as a browser's HTML parser does with a bookmark file.
 */
export function storableText(value: string): string {
  return value.replaceAll('\u0000', '').replace(LONE_SURROGATE, '\ufffd');
}
