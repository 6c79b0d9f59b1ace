/**
 * The poke (docs/sync-protocol.md, "Poke"): after a push commits, the users who can see what it
 * changed are told to pull now. `GET /sync/v1/poke` is a Server-Sent Events stream per signed-in
 * device; a poke is `event: poke` with a counter and nothing else, never data.
 */
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { StackContext } from './context.ts';
import { requireApiKey } from './api-key.ts';
import { bearerToken, verifyJwt } from './jwt.ts';

export interface PokeLimits {
  /** Open streams one user may hold (tabs and devices). */
  perUser: number;
  /** Open streams the stack holds in all. */
  total: number;
}

export const DEFAULT_POKE_LIMITS: PokeLimits = { perUser: 10, total: 1000 };
export const HEARTBEAT_MS = 25_000;
/** setTimeout's longest delay; an access token lives an hour. */
const MAX_DELAY_MS = 2 ** 31 - 1;

/** Who is listening: one callback per open stream, by user id. */
export class PokeHub {
  private readonly byUser = new Map<string, Set<() => void>>();
  private open = 0;

  constructor(private readonly limits: PokeLimits = DEFAULT_POKE_LIMITS) {}

  /** Adds a listener; null when the user's or the stack's cap is reached. Returns its removal. */
  subscribe(userId: string, listener: () => void): (() => void) | null {
    const mine = this.byUser.get(userId) ?? new Set();
    if (mine.size >= this.limits.perUser || this.open >= this.limits.total) return null;
    mine.add(listener);
    this.byUser.set(userId, mine);
    this.open += 1;
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      mine.delete(listener);
      this.open -= 1;
      if (mine.size === 0) this.byUser.delete(userId);
    };
  }

  /** Pokes every open stream of these users; returns how many streams were poked. */
  poke(userIds: Iterable<string>): number {
    let count = 0;
    for (const id of new Set(userIds)) {
      for (const listener of this.byUser.get(id) ?? []) {
        listener();
        count += 1;
      }
    }
    return count;
  }

  get size(): number {
    return this.open;
  }
}

/** After a sync_push answered 200: pokes the users its applied changes concern (never fails the push). */
export async function pokeAfterPush(ctx: StackContext, userId: string, answer: string): Promise<void> {
  if (!answer.includes('"applied"')) return;
  try {
    const { rows } = await ctx.db.query<{ id: string }>(
      'select t::text as id from private.sync_poke_targets($1::uuid, $2::jsonb) t',
      [userId, answer],
    );
    ctx.pokes.poke(rows.map((row) => row.id));
  } catch (error) {
    console.error('[poke]', error);
  }
}

/** After a billing event changed a tier: the user's devices pull the new profile now. */
export function pokeAfterBilling(ctx: StackContext, answer: string): void {
  try {
    const { outcome, user_id: userId } = JSON.parse(answer) as { outcome?: string; user_id?: string };
    if (outcome === 'applied' && typeof userId === 'string') ctx.pokes.poke([userId]);
  } catch {
    // Not an answer of ours: nothing to poke.
  }
}

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

    let pending = 0;
    let closed = false;
    let wake: (() => void) | null = null;
    const rouse = () => {
      const resolve = wake;
      wake = null;
      resolve?.();
    };
    const unsubscribe = ctx.pokes.subscribe(sub, () => {
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
