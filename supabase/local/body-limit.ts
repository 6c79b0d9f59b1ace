/**
 * The stack's request body limits. A body over its route's limit is answered 413, in the route
 * family's error shape, only once the client has sent it all: the rest is read and discarded (up to
 * DRAIN_LIMIT), so the client is never cut off while still sending and always reads the answer.
 * Answering at once and closing (Hono's bodyLimit with @hono/node-server, which drains for 500 ms
 * and then destroys the socket) made clients see a reset instead of the 413.
 *
 * Every body is read here, whole, before its route runs: a route that answers without reading
 * (a 401, a 405, a static page) leaves nothing unread behind it either.
 */
import type { Context, MiddlewareHandler } from 'hono';

/** How much of an oversized body is read and discarded before answering; past it the connection closes. */
export const DRAIN_LIMIT = 16 * 1024 * 1024;

/** A 413 in the route family's shape. */
export type TooLargeAnswer = (c: Context, message: string) => Response;

export const TOO_LARGE = 'request_too_large';

/** PostgREST's error body. */
export const restTooLarge: TooLargeAnswer = (c, message) =>
  c.json({ code: TOO_LARGE, details: null, hint: null, message }, 413);
/** GoTrue's error body. */
export const authTooLarge: TooLargeAnswer = (c, message) =>
  c.json({ code: TOO_LARGE, error_code: TOO_LARGE, msg: message }, 413);
/** What the functions answer: {error}. */
export const functionTooLarge: TooLargeAnswer = (c, message) => c.json({ code: TOO_LARGE, error: message }, 413);
/** The card provider's (Stripe's) error body. */
export const providerTooLarge: TooLargeAnswer = (c, message) =>
  c.json({ error: { type: 'invalid_request_error', code: TOO_LARGE, message } }, 413);
/** Anything else: {code, message}. */
export const plainTooLarge: TooLargeAnswer = (c, message) => c.json({ code: TOO_LARGE, message }, 413);

type Read = { kind: 'body'; bytes: Uint8Array<ArrayBuffer> } | { kind: 'too-large'; drained: boolean };

/** Reads the stream whole when it fits `limit`; otherwise reads on, discarding, up to DRAIN_LIMIT. */
async function readWithin(stream: ReadableStream<Uint8Array>, limit: number): Promise<Read> {
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > DRAIN_LIMIT) {
      await reader.cancel().catch(() => undefined);
      return { kind: 'too-large', drained: false };
    }
    if (size <= limit) parts.push(value);
    else parts.length = 0;
  }
  if (size > limit) return { kind: 'too-large', drained: true };
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return { kind: 'body', bytes };
}

/** Refuses bodies over `maxSize` bytes with `answer`'s 413, after reading them through. */
export function bodyLimit(maxSize: number, answer: TooLargeAnswer): MiddlewareHandler {
  const message = `The request body is larger than ${Math.round(maxSize / 1024)} KB.`;
  return async (c, next) => {
    const req = c.req.raw;
    if (!req.body) return next();
    const declared = Number(req.headers.get('content-length') ?? NaN);
    if (!req.headers.has('transfer-encoding') && declared > DRAIN_LIMIT) {
      // More than is worth reading: answered at once, and the connection is not kept.
      c.header('Connection', 'close');
      return answer(c, message);
    }
    const read = await readWithin(req.body, maxSize);
    if (read.kind === 'too-large') {
      if (!read.drained) c.header('Connection', 'close');
      return answer(c, message);
    }
    c.req.raw = new Request(req, { body: read.bytes });
    return next();
  };
}

export interface BodyLimitRule {
  /** A path prefix: the rule covers it and everything under it. */
  prefix: string;
  maxSize: number;
  answer: TooLargeAnswer;
}

/** The first rule whose prefix the path is under decides; any other path gets `fallback`. */
export function bodyLimits(
  rules: readonly BodyLimitRule[],
  fallback: Omit<BodyLimitRule, 'prefix'>,
): MiddlewareHandler {
  const handlers = rules.map((rule) => ({ prefix: rule.prefix, handler: bodyLimit(rule.maxSize, rule.answer) }));
  const otherwise = bodyLimit(fallback.maxSize, fallback.answer);
  return (c, next) => {
    const path = c.req.path;
    const rule = handlers.find(({ prefix }) => path === prefix || path.startsWith(`${prefix}/`));
    return (rule?.handler ?? otherwise)(c, next);
  };
}
