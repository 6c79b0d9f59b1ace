import { defineConfig, devices } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { chromiumArgs, chromiumPath } from './tests/support/chromium.ts';

const port = Number(process.env.E2E_PORT ?? 4317);
const baseURL = `http://127.0.0.1:${port}`;
// A secret for this run's stack, shared with the specs (e2e/support/keys.ts) through the
// environment that the worker processes inherit.
process.env.E2E_JWT_SECRET ??= randomBytes(32).toString('base64url');

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL,
    trace: process.env.CI ? 'on-first-retry' : 'off',
    ...devices['Desktop Chrome'],
    launchOptions: {
      executablePath: chromiumPath,
      args: chromiumArgs,
    },
  },
  webServer: {
    command: 'npx vite build && npx tsx supabase/local/server.ts',
    url: `${baseURL}/`,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      LINKBOARD_DB: 'memory',
      JWT_SECRET: process.env.E2E_JWT_SECRET,
      // Every journey signs up from 127.0.0.1; the limits themselves are tested in tests/local.
      LINKBOARD_AUTH_LIMITS:
        '{"signUp":{"max":10000},"signIn":{"max":10000},"mail":{"max":1000},"verify":{"max":10000}}',
    },
    reuseExistingServer: !process.env.CI,
    timeout: 180_000,
    stdout: 'pipe',
  },
});
