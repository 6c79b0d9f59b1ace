/**
 * 50 mails an hour per sender, a sliding window kept in memory (per function instance, as an
 * Edge Function isolate would keep it).
 */
export const MAILS_PER_HOUR = 50;
const HOUR_MS = 3_600_000;
const sent = new Map<string, number[]>();

/** Records a send and returns 0, or returns the seconds to wait when the sender is over the limit. */
export function allowSend(sender: string, now: number): number {
  const recent = (sent.get(sender) ?? []).filter((at) => at > now - HOUR_MS);
  if (recent.length >= MAILS_PER_HOUR) {
    sent.set(sender, recent);
    return Math.max(1, Math.ceil(((recent[0] ?? now) + HOUR_MS - now) / 1000));
  }
  recent.push(now);
  sent.set(sender, recent);
  return 0;
}

export function resetRateLimit(): void {
  sent.clear();
}
