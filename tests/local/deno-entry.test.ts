/**
 * The hosted entry: every function serves itself on Deno (Supabase's Edge Runtime) with the
 * environment Deno.env gives, and is listed in supabase/config.toml with the import map that
 * resolves its npm imports. Under Node, serveOnDeno does nothing (the local stack calls the handler).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { denoEnv, serveOnDeno } from '../../supabase/functions/_shared/serve.ts';
import { functionsDir, functionsWithoutJwt } from '../../supabase/local/functions.ts';

const functions = readdirSync(functionsDir).filter((name) => existsSync(join(functionsDir, name, 'index.ts')));
const toml = readFileSync(join(functionsDir, '..', 'config.toml'), 'utf8');

describe('the hosted entry', () => {
  it('is called by every function, which config.toml lists with the import map', () => {
    expect(functions.length).toBeGreaterThanOrEqual(8);
    for (const name of functions) {
      const source = readFileSync(join(functionsDir, name, 'index.ts'), 'utf8');
      expect(source, name).toMatch(/\nserveOnDeno\(handler\);\n$/);
      expect(toml, name).toContain(`[functions.${name}]\nimport_map = "./functions/deno.json"`);
    }
    // Each authenticates its callers itself: the provider's signature, the feed's token, and for a
    // link's picture (an <img> sends no token) the link's unguessable id.
    expect([...functionsWithoutJwt(toml)]).toEqual(['billing-webhook', 'calendar-feed', 'link-image']);
  });

  it('maps every npm import of the functions to the version package.json pins', () => {
    const map = (
      JSON.parse(readFileSync(join(functionsDir, 'deno.json'), 'utf8')) as { imports: Record<string, string> }
    ).imports;
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> };
    const bare = new Set<string>();
    for (const dir of readdirSync(functionsDir)) {
      const path = join(functionsDir, dir);
      if (!existsSync(path) || dir.includes('.')) continue;
      for (const file of readdirSync(path).filter((f) => f.endsWith('.ts'))) {
        // `node:` built-ins need no mapping: Deno provides them (its Node compatibility).
        for (const match of readFileSync(join(path, file), 'utf8').matchAll(/from '([^.'][^']*)'/g))
          if (!match[1]!.startsWith('node:')) bare.add(match[1]!);
      }
    }
    for (const name of bare) {
      const installed = (JSON.parse(readFileSync(`node_modules/${name}/package.json`, 'utf8')) as { version: string })
        .version;
      expect(map[name], name).toBe(`npm:${name}@${installed}`);
      expect(pkg.dependencies[name], name).toBeDefined();
    }
  });

  it('reads from Deno.env every variable a function takes, as the local stack passes each', () => {
    const types = readFileSync(join(functionsDir, '_shared', 'types.ts'), 'utf8');
    const names = [...types.matchAll(/^\s+([A-Z][A-Z0-9_]*)\??: string;$/gm)].map((match) => match[1]!);
    expect(names).toEqual(expect.arrayContaining(['SUPABASE_URL', 'STRIPE_API_BASE', 'REMINDERS_CRON_SECRET']));
    const env = denoEnv({ env: { get: (name) => `set:${name}` }, serve: () => undefined }) as unknown as Record<
      string,
      unknown
    >;
    for (const name of names) expect(env[name], name).toBe(`set:${name}`);
  });

  it('reads the environment from Deno.env and serves the handler; does nothing without Deno', async () => {
    const values: Record<string, string> = {
      SUPABASE_URL: 'https://p.supabase.co',
      SUPABASE_ANON_KEY: 'anon',
      SUPABASE_SERVICE_ROLE_KEY: 'service',
      STRIPE_SECRET_KEY: 'sk_live_x',
      STRIPE_API_BASE: 'http://127.0.0.1:54321/_checkout',
    };
    let served: ((req: Request) => Response | Promise<Response>) | undefined;
    const deno = { env: { get: (name: string) => values[name] }, serve: (h: typeof served) => (served = h) };
    const env = denoEnv(deno);
    expect(env).toMatchObject({ SUPABASE_URL: 'https://p.supabase.co', STRIPE_SECRET_KEY: 'sk_live_x' });
    // The smoke suite's Deno functions reach the local test-mode provider through it.
    expect(env.STRIPE_API_BASE).toBe('http://127.0.0.1:54321/_checkout');
    expect(env.SMTP_URL).toBeUndefined();

    serveOnDeno(async () => new Response('not on Node'));
    (globalThis as { Deno?: unknown }).Deno = deno;
    try {
      serveOnDeno(async (req, given) => new Response(`${req.method} ${given.SUPABASE_URL}`));
      expect(await (await served!(new Request('https://x/'))).text()).toBe('GET https://p.supabase.co');
      serveOnDeno(async () => {
        throw new Error('boom');
      });
      expect((await served!(new Request('https://x/'))).status).toBe(500);
    } finally {
      delete (globalThis as { Deno?: unknown }).Deno;
    }
  });
});
