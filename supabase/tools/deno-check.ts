/**
 * `npm run functions:check`: type-checks every Edge Function (supabase/functions/<name>/index.ts,
 * found by folder, with everything it imports) on Deno with supabase/functions/deno.json, as the
 * hosted runtime resolves them (supabase/tools/deno.ts). Exits 1 on any type error.
 */
import { spawnSync } from 'node:child_process';
import { relative } from 'node:path';
import { denoBinary, denoFlags, denoProcessEnv, functionEntry, functionNames, projectRoot } from './deno.ts';

const started = performance.now();
const names = functionNames();
if (names.length === 0) {
  console.error('No function found under supabase/functions/<name>/index.ts.');
  process.exit(1);
}
const entries = names.map((name) => relative(projectRoot, functionEntry(name)));
const result = spawnSync(denoBinary, ['check', ...denoFlags, ...entries], {
  cwd: projectRoot,
  env: denoProcessEnv(),
  stdio: 'inherit',
});
const seconds = ((performance.now() - started) / 1000).toFixed(1);
if (result.error) {
  console.error(`deno could not start (${denoBinary}): ${result.error.message}`);
  process.exit(1);
}
if (result.status !== 0) {
  console.error(`deno check failed for the Edge Functions (${seconds} s).`);
  process.exit(result.status ?? 1);
}
console.log(`deno check: ${names.length} Edge Functions type-check on Deno (${seconds} s): ${names.join(', ')}`);
