/**
 * Text from an import file as the server can keep it. PostgreSQL's text holds no NUL and its JSON no
 * lone UTF-16 half, and one such character in a queued mutation would make the server refuse the whole
 * push: NULs are dropped and lone halves become U+FFFD, as a browser's HTML parser does for a bookmark
 * file (a JSON export can carry either as an escape). A text cut to a length never ends in half a pair.
 */
const LONE_HALF = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function savableText(text: string): string {
  return text.replaceAll('\u0000', '').replace(LONE_HALF, '\ufffd');
}

/** savableText cut to at most `max` UTF-16 units, a pair at the cut dropped whole, then trimmed. */
export function cutText(text: string, max: number): string {
  const cut = savableText(text).slice(0, max);
  return (/[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut).trim();
}
