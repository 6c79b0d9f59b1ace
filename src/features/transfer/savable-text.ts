/**
 * Text from an import file as the server can keep it (src/domain/storable-text.ts): made storable,
 * cut to a length without splitting an emoji, then trimmed. One unstorable character in a queued
 * mutation would have the whole push refused, so an import cleans rather than refuses.
 */
import { cutText, storableText } from '../../domain/storable-text.ts';

/** Text made storable, cut to at most `max` UTF-16 units, a pair at the cut dropped whole, then trimmed. */
export function cutSavable(text: string, max: number): string {
  return cutText(storableText(text), max).trim();
}
