/**
 * The smoke cases of every Edge Function, written once and sent to both runtimes (Node in the local
 * stack, Deno as hosted serves it): for each, a good request, bad input, a missing or invalid
 * credential, a wrong method and a CORS preflight, with the status and the body each must answer.
 */
import Stripe from 'stripe';
import { expect } from 'vitest';
import type { SmokeFixture, SmokeStack } from './function-smoke-stack.ts';

export type Runtime = 'node' | 'deno';

export interface CaseContext {
  stack: SmokeStack;
  fx: SmokeFixture;
  runtime: Runtime;
}

export interface SmokeRequest {
  method?: string;
  /** The query, `?a=b`. */
  query?: string;
  headers?: Record<string, string>;
  /** JSON-encoded unless a string. */
  body?: unknown;
}

export interface SmokeCase {
  fn: string;
  title: string;
  request(ctx: CaseContext): SmokeRequest | Promise<SmokeRequest>;
  /** The status on both runtimes, or each runtime's where the local stack's gateway answers for the function. */
  status: number | Record<Runtime, number>;
  /** The body (JSON parsed, else text), matched with toEqual; omitted for an empty one. */
  body?: unknown;
  /** Each runtime's body, where the status is each runtime's. */
  bodies?: Record<Runtime, unknown>;
  /** More checks of the answer (headers, what the call did). */
  check?(response: Response, ctx: CaseContext): void | Promise<void>;
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
export const error = (message: string) => ({ error: message });
export const FORGED = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.forged';
const signer = new Stripe('sk_test_signer');

/** A provider event signed with the stack's webhook secret, as the provider delivers it. */
export async function signedEvent(ctx: CaseContext, event: Record<string, unknown>): Promise<SmokeRequest> {
  const body = JSON.stringify(event);
  const signature = await signer.webhooks.generateTestHeaderStringAsync({
    payload: body,
    secret: ctx.stack.billing.webhookSecret,
  });
  return { method: 'POST', headers: { 'Stripe-Signature': signature }, body };
}

/** A browser's preflight from the app's page: granted, for the method and the Supabase client's headers. */
export function preflight(fn: string, method: string): SmokeCase {
  return {
    fn,
    title: `answers a CORS preflight for ${method} from the app's page`,
    request: (ctx) => ({
      method: 'OPTIONS',
      headers: {
        Origin: ctx.stack.url,
        'Access-Control-Request-Method': method,
        'Access-Control-Request-Headers': 'authorization, apikey, content-type',
      },
    }),
    status: 204,
    check: (response, ctx) => {
      expect([ctx.stack.url, '*']).toContain(response.headers.get('access-control-allow-origin'));
      expect(response.headers.get('access-control-allow-methods')).toContain(method);
      expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    },
  };
}

/**
 * A server-to-server function has no CORS headers: no page of another site may read its answers.
 * Deno gives the preflight to the function (405, as hosted does); the local stack's API layer
 * answers every preflight itself (204), granting no foreign origin either.
 */
export function noCors(fn: string): SmokeCase {
  return {
    fn,
    title: 'grants no other site a preflight',
    request: () => ({
      method: 'OPTIONS',
      headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'POST' },
    }),
    status: { node: 204, deno: 405 },
    bodies: { node: undefined, deno: expect.anything() },
    check: (response) => expect(response.headers.get('access-control-allow-origin')).toBeNull(),
  };
}

export const wrongMethod = (fn: string, method: string, body: unknown = error('Method not allowed')): SmokeCase => ({
  fn,
  title: `refuses ${method} with 405`,
  request: () => ({ method }),
  status: 405,
  body,
});
