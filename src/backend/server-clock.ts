/**
 * The app's clock: the device's, corrected by what the server's answers say its clock reads
 * (docs/architecture.md, The server's clock). A phone set days ahead or behind still counts a
 * month's quota, a poll's deadline, 'today', overdue and a reminder by the server's time. The
 * offset is kept on the device, so an offline start uses the last one learned.
 */
const STORAGE_KEY = 'lb_clock_offset';
/** An answer that took longer than this says too little about when the server read its clock. */
const MAX_ROUND_TRIP_MS = 10_000;
/** Offsets smaller than this are the network's noise: the device's clock is taken as right. */
const NOISE_MS = 2_000;

let offsetMs = readStoredOffset();
const listeners = new Set<() => void>();

function readStoredOffset(): number {
  try {
    const value = Number(globalThis.localStorage?.getItem(STORAGE_KEY));
    return Number.isFinite(value) ? value : 0;
  } catch {
    return 0;
  }
}

/** What the server's clock reads now (epoch ms), as best the device knows. */
export function appNowMs(): number {
  return Date.now() + offsetMs;
}

/** What the server's clock reads now, as a Date. */
export function appNow(): Date {
  return new Date(appNowMs());
}

/** Calls `listener` when the offset changes (a clock on screen reads the time again); answers an unsubscribe. */
export function onClockChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** How far the device's clock is behind the server's (ms; negative when ahead). */
export function clockOffsetMs(): number {
  return offsetMs;
}

/**
 * Learns the offset from an answer: the server read `serverMs` between `sentAt` and `answeredAt`
 * (device epoch ms), taken as the middle of the round trip. A slow answer, or a value that is not a
 * time, teaches nothing.
 */
export function learnServerTime(serverMs: unknown, sentAt: number, answeredAt: number): void {
  if (typeof serverMs !== 'number' || !Number.isFinite(serverMs)) return;
  const roundTrip = answeredAt - sentAt;
  if (roundTrip < 0 || roundTrip > MAX_ROUND_TRIP_MS) return;
  const measured = serverMs - (sentAt + answeredAt) / 2;
  const next = Math.abs(measured) < NOISE_MS ? 0 : Math.round(measured);
  if (next === offsetMs) return;
  offsetMs = next;
  for (const listener of listeners) listener();
  try {
    if (next === 0) globalThis.localStorage?.removeItem(STORAGE_KEY);
    else globalThis.localStorage?.setItem(STORAGE_KEY, String(next));
  } catch {
    // Storage refused (private mode, full): the offset still holds for this session.
  }
}
