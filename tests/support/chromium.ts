/**
 * The installed Chromium and the flags it runs with here (no sandbox as root, no GPU, nothing
 * fetched from the network on its own), shared by the e2e suite and the bench.
 */
import { existsSync } from 'node:fs';

export const chromiumPath =
  process.env.BENCH_CHROMIUM ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];
