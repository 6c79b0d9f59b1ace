/**
 * Every Edge Function on Deno, served as hosted Supabase serves it (deno-runtime.ts), against the
 * local stack on a real database, and the same requests to the same functions on Node in the local
 * stack (/api/<name>): each case's status and body on both, and the same body shape on both.
 * `npm run functions:check` type-checks them on Deno; this shows they run there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionNames } from '../../supabase/tools/deno.ts';
import { serveOnDenoProcesses, type DenoFunctions } from './deno-runtime.ts';
import type { CaseContext, Runtime, SmokeCase } from './function-smoke-cases.ts';
import { billingCases } from './function-smoke-billing.ts';
import { directoryCases } from './function-smoke-directories.ts';
import { mailCases } from './function-smoke-mail.ts';
import { previewCases } from './function-smoke-previews.ts';
import { smokeFixture, startSmokeStack, type SmokeFixture, type SmokeStack } from './function-smoke-stack.ts';

const cases: SmokeCase[] = [...mailCases, ...billingCases, ...directoryCases, ...previewCases];
const runtimes: Runtime[] = ['node', 'deno'];

let stack: SmokeStack;
let deno: DenoFunctions;
const fixtures = {} as Record<Runtime, SmokeFixture>;

beforeAll(async () => {
  stack = await startSmokeStack();
  // Both settle before either failure is thrown, so afterAll stops every Deno server that started.
  const [served, made] = await Promise.allSettled([
    serveOnDenoProcesses(functionNames(), stack.env),
    Promise.all([smokeFixture(stack, 'node'), smokeFixture(stack, 'deno')]),
  ]);
  if (served.status === 'fulfilled') deno = served.value;
  else throw served.reason;
  if (made.status === 'rejected') throw made.reason;
  Object.assign(fixtures, { node: made.value[0], deno: made.value[1] });
}, 120_000);
afterAll(async () => {
  await deno?.close();
  await stack?.close();
});

/** The JSON value's shape: its keys and the type of each value, arrays by their first item. */
function shapeOf(value: unknown): unknown {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length ? [shapeOf(value[0])] : [];
  if (typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, item]) => [key, shapeOf(item)]),
    );
  }
  return typeof value;
}

async function send(test: SmokeCase, ctx: CaseContext): Promise<{ response: Response; body: unknown }> {
  const request = await test.request(ctx);
  const base = ctx.runtime === 'node' ? `${stack.url}/api/${test.fn}` : deno.url(test.fn);
  const headers = new Headers(request.headers);
  // The gateway's client address: the stack sets it on Node, hosted Supabase's gateway on Deno.
  if (ctx.runtime === 'deno') headers.set('X-Forwarded-For', '127.0.0.1');
  let body: string | undefined;
  if (request.body !== undefined) {
    body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
    if (!headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
  }
  const response = await fetch(`${base}${request.query ?? ''}`, { method: request.method ?? 'GET', headers, body });
  const text = await response.clone().text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: the text itself (calendar-feed).
  }
  return { response, body: parsed };
}

describe('the Edge Functions on Deno and on Node', () => {
  it('serves every function folder on Deno', () => {
    expect(functionNames().length).toBeGreaterThanOrEqual(12);
    for (const name of functionNames()) expect(deno.url(name)).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('has a good request, a wrong method and a preflight case for every function', () => {
    for (const name of functionNames()) {
      const titles = cases.filter((test) => test.fn === name).map((test) => test.title);
      expect(titles.length, name).toBeGreaterThanOrEqual(3);
      expect(
        titles.some((title) => /refuses (GET|POST) with 405/.test(title)),
        name,
      ).toBe(true);
      expect(
        titles.some((title) => /preflight/.test(title)),
        name,
      ).toBe(true);
    }
  });

  for (const test of cases) {
    it(`${test.fn} ${test.title}`, async () => {
      const shapes: Partial<Record<Runtime, unknown>> = {};
      for (const runtime of runtimes) {
        const ctx: CaseContext = { stack, fx: fixtures[runtime], runtime };
        const { response, body } = await send(test, ctx);
        const status = typeof test.status === 'number' ? test.status : test.status[runtime];
        const where = runtime === 'deno' ? `on Deno; its log:\n${deno.output(test.fn)}` : 'on Node';
        expect(response.status, `${test.fn} ${where}`).toBe(status);
        expect(response.status, `${test.fn} ${where}`).toBeLessThan(500);
        const expected = test.bodies ? test.bodies[runtime] : test.body;
        if (expected === undefined) expect(body, `${test.fn} ${where}`).toBeUndefined();
        else expect(body, `${test.fn} ${where}`).toEqual(expected);
        await test.check?.(response, ctx);
        shapes[runtime] = shapeOf(body);
      }
      // Where the local stack's gateway answers for the function (a preflight), the bodies differ by design.
      if (typeof test.status === 'number') expect(shapes.deno).toEqual(shapes.node);
    });
  }
});
