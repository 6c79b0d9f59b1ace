/**
 * The poke (docs/sync-protocol.md, "Poke"): after a push commits, the devices listening on the
 * topics it concerns (the users who can see what it changed; the public voting board for a public
 * poll) are told to pull now. `GET /sync/v1/poke` is a Server-Sent Events stream per signed-in
 * device, on its user's topic and the public topics it names (`?topic=public:voting`); a poke is
 * `event: poke` with a counter and nothing else, never data. Who listens where: poke-hub.ts.
 */
import * as v from 'valibot';
import { firstIssue } from '../../src/domain/input-schema.ts';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { StackContext } from './context.ts';
import { requireApiKey } from './api-key.ts';
import { bearerToken, verifyJwt } from './jwt.ts';
import { MAX_PUBLIC_TOPICS, isPublicTopic, userTopic } from './poke-hub.ts';

export const HEARTBEAT_MS = 25_000;
/** setTimeout's longest delay; an access token lives an hour. */
const MAX_DELAY_MS = 2 ** 31 - 1;

/** After a sync_push answered 200: pokes the topics its applied changes concern (never fails the push). */
export async function pokeAfterPush(ctx: StackContext, userId: string, answer: string): Promise<void> {
  if (!answer.includes('"applied"')) return;
  try {
    const { rows } = await ctx.db.query<{ topic: string }>(
      'select t as topic from private.sync_poke_topics($1::uuid, $2::jsonb) t',
      [userId, answer],
    );
    ctx.pokes.poke(rows.map((row) => row.topic));
  } catch (error) {
    console.error('[poke]', error);
  }
}

/** After a billing event changed a tier: the user's devices pull the new profile now. */
export function pokeAfterBilling(ctx: StackContext, answer: string): void {
  try {
    const { outcome, user_id: userId } = JSON.parse(answer) as { outcome?: string; user_id?: string };
    if (outcome === 'applied' && typeof userId === 'string') ctx.pokes.poke([userTopic(userId)]);
  } catch {
    // Not an answer of ours: nothing to poke.
  }
}

const INVALID_TOPICS = `A poke stream listens on at most ${MAX_PUBLIC_TOPICS} public topics (public:<name>).`;
/** ?topic=public:<name>, repeated: at most MAX_PUBLIC_TOPICS different public topics. */
const topicsQuery = v.pipe(
  v.array(v.pipe(v.string(), v.check(isPublicTopic, INVALID_TOPICS))),
  v.transform((topics) => [...new Set(topics)]),
  v.maxLength(MAX_PUBLIC_TOPICS, INVALID_TOPICS),
);

const unauthorized = (message: string) => ({ code: 'unauthorized', message });

export function pokeApp(ctx: StackContext): Hono {
  const app = new Hono();
  app.use('*', requireApiKey(ctx));

  app.get('/poke', async (c) => {
    // EventSource cannot set headers: the token comes as ?access_token= (or a Bearer header).
    const token = bearerToken(c.req.header('Authorization')) ?? c.req.query('access_token');
    if (!token) return c.json(unauthorized('An access token is required.'), 401);
    const verified = await verifyJwt(token, ctx.jwtSecret);
    if (!verified.ok) return c.json(unauthorized(verified.reason === 'expired' ? 'JWT expired' : 'Invalid JWT'), 401);
    const { sub, role, exp } = verified.claims;
    if (role !== 'authenticated' || typeof sub !== 'string' || typeof exp !== 'number') {
      return c.json(unauthorized('A signed-in user is required.'), 401);
    }
    const { rows } = await ctx.db.query('select 1 from auth.users where id::text = $1', [sub]);
    if (rows.length === 0) return c.json(unauthorized('JWT sub claim names no existing user'), 401);
    // Public topics by name; the user's own topic always (another user's is never named here).
    const named = v.safeParse(topicsQuery, c.req.queries('topic') ?? []);
    if (!named.success) return c.json({ code: 'invalid_topic', message: firstIssue(named.issues) }, 400);
    const topics = named.output;

    let pending = 0;
    let closed = false;
    let wake: (() => void) | null = null;
    const rouse = () => {
      const resolve = wake;
      wake = null;
      resolve?.();
    };
    const unsubscribe = ctx.pokes.subscribe(sub, topics, () => {
      pending += 1;
      rouse();
    });
    if (!unsubscribe) {
      return c.json({ code: 'too_many_streams', message: 'Too many open poke streams.' }, 429, { 'Retry-After': '10' });
    }

    return streamSSE(c, async (stream) => {
      const end = () => {
        closed = true;
        rouse();
      };
      stream.onAbort(end);
      // The stream ends with the token; the client opens a new one with a fresh token.
      const expiry = setTimeout(end, Math.min(MAX_DELAY_MS, Math.max(0, exp * 1000 - Date.now())));
      let writing = false;
      const heartbeat = setInterval(() => {
        if (writing || closed) return;
        writing = true;
        void stream
          .write(': heartbeat\n\n')
          .catch(end)
          .finally(() => (writing = false));
      }, HEARTBEAT_MS);
      try {
        let counter = 0;
        await stream.writeSSE({ event: 'ready', data: '0' });
        while (!closed && !stream.aborted) {
          if (pending > 0) {
            // A burst of pokes while the last one was being written is one poke.
            pending = 0;
            counter += 1;
            await stream.writeSSE({ event: 'poke', data: String(counter) });
            continue;
          }
          await new Promise<void>((resolve) => (wake = resolve));
        }
      } finally {
        clearTimeout(expiry);
        clearInterval(heartbeat);
        unsubscribe();
      }
    });
  });
  return app;
}
