import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type RunningStack } from '../../supabase/local/server.ts';
import { serverClient } from '../../supabase/functions/_shared/client.ts';
import { TEST_ANON_KEY, TEST_JWT_SECRET } from '../support/test-keys.ts';
import { freshDb } from '../support/db.ts';

let stack: RunningStack;
beforeAll(async () => {
  stack = await startStack({ db: await freshDb(), port: 0, host: '127.0.0.1', jwtSecret: TEST_JWT_SECRET });
});
afterAll(async () => {
  await stack.close();
  await stack.db.close();
});

describe('startStack', () => {
  it('listens on a free loopback port and serves supabase-js over real HTTP', async () => {
    expect(stack.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(stack.keys.anonKey).toBe(TEST_ANON_KEY);
    const client = serverClient(stack.url, stack.keys.anonKey, fetch);
    const { data, error } = await client.auth.signUp({ email: 'server-test@example.com', password: 'password1' });
    expect(error).toBeNull();
    expect((await client.rpc('get_my_profile')).data).toMatchObject({ id: data.user!.id });
    // Browsers may call the API from the app's own origin only.
    const preflight = (origin: string) =>
      fetch(`${stack.url}/rest/v1/rpc/get_my_profile`, {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'POST' },
      });
    expect((await preflight(stack.url)).headers.get('access-control-allow-origin')).toBe(stack.url);
    expect((await preflight('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
    expect((await fetch(`${stack.url}/_health`)).status).toBe(200);
  });
});
