/**
 * The fault suite (docs/faults.md): `npm run faults`, in Chromium against the local stack on
 * PostgreSQL (FAULTS_DATABASE_URL), each spec starting and breaking its own stack. No retries: a
 * fault that loses something once is a loss.
 */
import { defineConfig, devices } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { chromiumArgs, chromiumPath } from './tests/support/chromium.ts';

process.env.E2E_JWT_SECRET ??= randomBytes(32).toString('base64url');

export default defineConfig({
  testDir: 'e2e/faults',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 240_000,
  expect: { timeout: 20_000 },
  globalSetup: './e2e/faults/support/build.ts',
  reporter: [['./e2e/faults/reporter.ts']],
  use: {
    ...devices['Desktop Chrome'],
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
  },
});
