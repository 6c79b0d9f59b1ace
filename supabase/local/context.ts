/** What the parts of the local stack share: the database, the keys and the settings. */
import type { Context, Hono } from 'hono';
import type { Db } from './db.ts';
import type { StackKeys } from './keys.ts';
import type { AuthLimits } from './auth-limits.ts';
import type { MailSettings } from './mail-settings.ts';
import type { PushSettings } from './push-settings.ts';
import { clientAddress } from './client-address.ts';
import { findUnstorableText, unstorableTextMessage } from '../../src/domain/storable-text.ts';

export interface StackContext {
  db: Db;
  jwtSecret: string;
  /** The anon and service_role keys signed with jwtSecret. */
  keys: StackKeys;
  supportEmail: string;
  /** The app's public origin: mailed links point there, never to a request's Host header. */
  siteUrl: string;
  /** Origins whose browser pages may call the API (the site itself, the dev server). */
  allowedOrigins: readonly string[];
  /** Reverse proxies whose X-Forwarded-For is believed. */
  trustedProxies: readonly string[];
  limits: AuthLimits;
  /** The card provider the billing functions use: Stripe's keys, or the local test-mode provider. */
  billing: BillingSettings;
  /** Delivery of the mail queue (the deliver-mail function's SMTP_URL and the rest); empty: the mailbox. */
  mail: MailSettings;
  /** The VAPID keys of reminder pushes (send-reminders) and their scheduler secret. */
  push: PushSettings;
  /** The bcrypt cost of passwords stored from now on (auth-users.ts). */
  passwordCost: number;
  /** The whole stack, so functions can call it in-process. */
  root(): Hono;
}

export interface BillingSettings {
  /** 'test': the stack plays the provider at /_checkout; 'provider': the real one (keys from the environment). */
  mode: 'test' | 'provider';
  secretKey: string;
  webhookSecret: string;
  /** Price ids by plan and cycle (the real provider's; the test provider has its own). */
  prices?: Partial<Record<'pro_monthly' | 'pro_yearly' | 'team_monthly' | 'team_yearly', string>>;
}

/** The request's client address (see client-address.ts). */
export function clientOf(ctx: StackContext, c: Context): string {
  return clientAddress(c, ctx.trustedProxies);
}

/** How deep a request's JSON may nest: far beyond any real call, far below any stack limit. */
export const MAX_JSON_DEPTH = 32;

/** How deep the value nests (iteratively, stopping past MAX_JSON_DEPTH). */
function depthOf(value: unknown): number {
  let depth = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [item, level] = stack.pop() as [unknown, number];
    if (typeof item !== 'object' || item === null) continue;
    depth = Math.max(depth, level);
    if (depth > MAX_JSON_DEPTH) return depth;
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push([child, level + 1]);
  }
  return depth;
}

/**
 * A parsed body, or why it is refused: not JSON (`syntax`), nested too deep (`depth`), or holding
 * text the database cannot store (`nul`: a NUL character; `surrogate`: a lone surrogate), with the
 * PostgreSQL's detail (`error`) and words that name the field (`message`, src/domain/storable-text.ts).
 */
export type JsonBody =
  | { ok: true; value: unknown }
  | { ok: false; error: string; kind: 'syntax' | 'depth' }
  | { ok: false; error: string; kind: 'nul' | 'surrogate'; message: string };

/** Parses a JSON body; an empty body counts as {}. Too deep a nesting or unstorable text is refused. */
export function parseJsonText(text: string): JsonBody {
  if (text.trim() === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    return { ok: false, kind: 'syntax', error: error instanceof Error ? error.message : 'invalid JSON' };
  }
  if (depthOf(value) > MAX_JSON_DEPTH) {
    return { ok: false, kind: 'depth', error: `JSON nested deeper than ${MAX_JSON_DEPTH} levels` };
  }
  const found = findUnstorableText(value);
  if (found !== null) {
    // PostgreSQL's own words for each (what hosted PostgREST answers), and words a person can read.
    const message = unstorableTextMessage(found.path);
    return found.fault === 'nul'
      ? { ok: false, kind: 'nul', error: '\\u0000 cannot be converted to text.', message }
      : { ok: false, kind: 'surrogate', error: 'Unicode low surrogate must follow a high surrogate.', message };
  }
  return { ok: true, value };
}

export async function readJsonBody(req: Request): Promise<JsonBody> {
  return parseJsonText(await req.text().catch(() => ''));
}

/** `to_char` of a timestamptz as GoTrue and PostgREST print it (UTC, microseconds). */
export function isoSql(column: string): string {
  return `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}
