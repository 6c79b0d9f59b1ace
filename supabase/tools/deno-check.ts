/**
 * `npm run functions:check`: type-checks every Edge Function (supabase/functions/<name>/index.ts,
 * found by folder, with everything it imports) on Deno with supabase/functions/deno.json, as the
 * hosted runtime resolves them (supabase/tools/deno.ts). Exits 1 on any type error.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, rmSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  denoBinary,
  denoFlags,
  denoProcessEnv,
  functionEntry,
  functionNames,
  functionsDir,
  projectRoot,
} from './deno.ts';

const started = performance.now();
const names = functionNames();
if (names.length === 0) {
  console.error('No function found under supabase/functions/<name>/index.ts.');
  process.exit(1);
}
const entries = names.map((name) => relative(projectRoot, functionEntry(name)));
// Type-checking a `node:` import makes Deno reference `npm:@types/node` with no importer of its
// own, and in --node-modules-dir=manual mode it looks for that package only in a node_modules
// beside deno.json (the packages a file imports are found from the file up, as Node finds them).
// So the check runs with supabase/functions/node_modules linked to the project's, and removes the
// link after: a deploy from this folder must not see it.
const nodeModulesLink = join(functionsDir, 'node_modules');
const linked = !existsSync(nodeModulesLink);
if (linked) symlinkSync(join('..', '..', 'node_modules'), nodeModulesLink, 'dir');
let result: ReturnType<typeof spawnSync>;
try {
  result = spawnSync(denoBinary, ['check', ...denoFlags, ...entries], {
    cwd: projectRoot,
    env: denoProcessEnv(),
    stdio: 'inherit',
  });
} finally {
  if (linked && lstatSync(nodeModulesLink).isSymbolicLink()) rmSync(nodeModulesLink);
}
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
