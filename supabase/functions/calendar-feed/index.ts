/**
 * calendar-feed (issue 16, point 3): GET ?token={token} → 200 text/calendar, the owner's events
 * and tasks as RFC 5545 (src/domain/ical), for Google Calendar, Apple Calendar and Thunderbird to
 * subscribe to. The token is the secret: calendar apps send no session, so the function is
 * deployed without JWT verification (supabase/config.toml) and reads the feed with the service
 * role through public.calendar_feed, which knows tokens only by their hash and throttles misses
 * per client address. 404 for a wrong or revoked token; 429 (with Retry-After) when throttled.
 */
import * as v from 'valibot';
import type { FunctionEnv } from '../_shared/types.ts';
import { serverClient } from '../_shared/client.ts';
import { clientAddress, gatewayFetch, isThrottled, throttledAnswer } from '../_shared/gateway.ts';
import { serveOnDeno } from '../_shared/serve.ts';
import { buildCalendarIcs } from '../../../src/domain/ical/calendar-ics.ts';
import type { CalendarRow } from '../../../src/domain/ical/calendar-row.ts';

/** A feed token (43 base64url characters); anything else is looked up as '' (no feed). */
const feedToken = v.fallback(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{43}$/)), '');
const NOT_FOUND = 'This calendar feed does not exist or was turned off.';
const TOO_MANY = 'Too many requests. Please try again later.';

function text(body: string, status: number, headers: Record<string, string> = {}): Response {
  return new Response(body, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
  });
}

export default async function handler(req: Request, env: FunctionEnv): Promise<Response> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return text('Method not allowed', 405, { Allow: 'GET, HEAD' });
  const token = v.parse(feedToken, new URL(req.url).searchParams.get('token'));
  try {
    const gateway = gatewayFetch(env.fetch, clientAddress(req));
    const client = serverClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY, gateway.fetch);
    // A malformed token is looked up too, so it counts against the client's misses.
    const { data, error, status } = await client.rpc('calendar_feed', { p_token: token });
    if (isThrottled(error, status)) {
      const throttled = throttledAnswer(error, gateway.retryAfter(), TOO_MANY);
      const retry = throttled.headers['Retry-After'];
      return text(TOO_MANY, 429, retry ? { 'Retry-After': retry } : {});
    }
    if (error) {
      console.error('[calendar-feed] calendar_feed failed:', error);
      return text('The calendar could not be loaded.', 502);
    }
    const feed = data as { time_zone: string; events: CalendarRow[] } | null;
    if (!feed) return text(NOT_FOUND, 404);
    const body = buildCalendarIcs(feed.events, { timeZone: feed.time_zone, calendarName: 'Linkboard' });
    return new Response(req.method === 'HEAD' ? null : body, {
      status: 200,
      headers: {
        'Content-Type': 'text/calendar; charset=utf-8',
        'Content-Disposition': 'inline; filename="linkboard.ics"',
        // Calendar apps poll; a proxy must not keep one user's feed for another, and the token
        // in the address is a secret, so nothing is stored on the way.
        'Cache-Control': 'private, max-age=300',
        'X-Robots-Tag': 'noindex',
        'Referrer-Policy': 'no-referrer',
      },
    });
  } catch (error) {
    console.error('[calendar-feed]', error);
    return text('The calendar could not be loaded.', 502);
  }
}

serveOnDeno(handler);
