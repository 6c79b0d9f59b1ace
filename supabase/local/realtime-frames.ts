/**
 * The Phoenix channel messages Supabase Realtime speaks over its WebSocket, as realtime-js sends
 * and reads them: `vsn=1.0.0` frames are JSON objects {join_ref, ref, topic, event, payload},
 * `vsn=2.0.0` text frames the same five as a JSON array [join_ref, ref, topic, event, payload].
 * Anything else (not JSON, a wrong shape, a binary frame) is no message: the socket closes.
 */

export type Vsn = '1.0.0' | '2.0.0';
export const VSNS: readonly Vsn[] = ['1.0.0', '2.0.0'];

export interface PhoenixMessage {
  join_ref: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: Record<string, unknown>;
}

/** Phoenix's longest topic and event names are far shorter; a longer one is no message of ours. */
const MAX_NAME = 255;

const refOf = (value: unknown): string | null | undefined =>
  value === null || value === undefined
    ? null
    : typeof value === 'string' && value.length <= MAX_NAME
      ? value
      : undefined;

const isName = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= MAX_NAME;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The message in a text frame, or null when it is not one. */
export function decodeFrame(vsn: Vsn, text: string): PhoenixMessage | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  let parts: unknown[];
  if (vsn === '2.0.0') {
    if (!Array.isArray(parsed) || parsed.length !== 5) return null;
    parts = parsed;
  } else {
    if (!isObject(parsed)) return null;
    parts = [parsed.join_ref, parsed.ref, parsed.topic, parsed.event, parsed.payload];
  }
  const [joinRef, ref, topic, event, payload] = parts;
  const join_ref = refOf(joinRef);
  const messageRef = refOf(ref);
  if (join_ref === undefined || messageRef === undefined || !isName(topic) || !isName(event)) return null;
  if (!isObject(payload)) return null;
  return { join_ref, ref: messageRef, topic, event, payload };
}

export function encodeFrame(vsn: Vsn, message: PhoenixMessage): string {
  const { join_ref, ref, topic, event, payload } = message;
  return JSON.stringify(vsn === '2.0.0' ? [join_ref, ref, topic, event, payload] : message);
}

/** A reply to the message `to`: `phx_reply` with {status, response}. */
export function reply(
  to: Pick<PhoenixMessage, 'join_ref' | 'ref' | 'topic'>,
  status: 'ok' | 'error',
  response: Record<string, unknown>,
): PhoenixMessage {
  return { join_ref: to.join_ref, ref: to.ref, topic: to.topic, event: 'phx_reply', payload: { status, response } };
}
