import { defineConfig, devices } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { chromiumArgs, chromiumPath } from './tests/support/chromium.ts';
import {
  e2ePort as port,
  mailRetryBaseMs,
  mailSmtpPort,
  mailStackPort,
  mailStackUrl,
} from './e2e/support/mail-stack.ts';

const baseURL = `http://127.0.0.1:${port}`;
// A secret for this run's stacks, shared with the specs (e2e/support/keys.ts) through the
// environment that the worker processes inherit.
process.env.E2E_JWT_SECRET ??= randomBytes(32).toString('base64url');

/** What both stacks run with: an in-memory database, the run's secret, auth limits for many sign-ups. */
const stackEnv = {
  HOST: '127.0.0.1',
  LINKBOARD_DB: 'memory',
  JWT_SECRET: process.env.E2E_JWT_SECRET,
  // Every journey signs up from 127.0.0.1; the limits themselves are tested in tests/local.
  LINKBOARD_AUTH_LIMITS: '{"signUp":{"max":10000},"signIn":{"max":10000},"mail":{"max":1000},"verify":{"max":10000}}',
};

export default defineConfig({
  testDir: 'e2e',
  // The fault suite has its own config (playwright.faults.config.ts): it runs on PostgreSQL.
  testIgnore: 'faults/**',
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
  webServer: [
    {
      command: 'npx vite build && npx tsx supabase/local/server.ts',
      url: `${baseURL}/`,
      // The link-preview journeys' web site on loopback (e2e/support/preview-site.ts): a test-only setting.
      env: { ...stackEnv, PORT: String(port), PREVIEW_FETCH_ALLOW: `127.0.0.1:${port + 3}` },
      reuseExistingServer: !process.env.CI,
      timeout: 180_000,
      stdout: 'pipe',
    },
    {
      // The mail stack (e2e/support/mail-stack.ts): the same stack delivering over SMTP to a
      // spec's test server. Playwright starts the web servers in order, so the app is built.
      command: 'npx tsx supabase/local/server.ts',
      url: `${mailStackUrl}/_health`,
      env: {
        ...stackEnv,
        PORT: String(mailStackPort),
        SMTP_URL: `smtp://127.0.0.1:${mailSmtpPort}`,
        MAIL_RETRY_BASE_MS: String(mailRetryBaseMs),
      },
      reuseExistingServer: !process.env.CI,
      timeout: 60_000,
      stdout: 'pipe',
    },
  ],
});
