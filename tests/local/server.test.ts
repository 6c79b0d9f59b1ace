import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type RunningStack } from '../../supabase/local/server.ts';
import { serverClient } from '../../supabase/functions/_shared/client.ts';
import { DEV_ANON_KEY } from '../../supabase/local/keys.ts';
import { freshDb } from '../support/db.ts';

let stack: RunningStack;
beforeAll(async () => {
  stack = await startStack({ db: await freshDb(), port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await stack.close();
  await stack.db.close();
});

describe('startStack', () => {
  it('listens on a free loopback port and serves supabase-js over real HTTP', async () => {
    expect(stack.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(stack.keys.anonKey).toBe(DEV_ANON_KEY);
    const client = serverClient(stack.url, stack.keys.anonKey, fetch);
    const { data, error } = await client.auth.signUp({ email: 'server-test@example.com', password: 'password1' });
    expect(error).toBeNull();
    expect((await client.rpc('get_my_profile')).data).toMatchObject({ id: data.user!.id });
    const cors = await fetch(`${stack.url}/rest/v1/rpc/get_my_profile`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST' },
    });
    expect(cors.headers.get('access-control-allow-origin')).toBe('*');
    expect((await fetch(`${stack.url}/_health`)).status).toBe(200);
  });
});
