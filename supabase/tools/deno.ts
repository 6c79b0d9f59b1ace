/**
 * Deno for the Edge Functions, as `npm ci` installs it (the `deno` devDependency), working offline:
 * npm imports resolve through supabase/functions/deno.json (what hosted Supabase's deploy reads) to
 * the packages already in node_modules (`--node-modules-dir=manual`), so Deno runs and checks
 * exactly the versions package-lock.json pins, and an import map entry that names another version
 * fails. Deno's own cache lives in node_modules/.cache/deno, never in the home folder.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const functionsDir = join(projectRoot, 'supabase', 'functions');
export const importMap = join(functionsDir, 'deno.json');
export const denoBinary = join(projectRoot, 'node_modules', '.bin', 'deno');

/** A function is a folder of supabase/functions with an index.ts (`_shared` and the like are not). */
const FUNCTION_NAME = /^[a-z0-9][a-z0-9_-]*$/;

/** Every function's name, in order: each folder supabase/functions/<name>/index.ts. */
export function functionNames(): string[] {
  return readdirSync(functionsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && FUNCTION_NAME.test(entry.name))
    .filter((entry) => existsSync(join(functionsDir, entry.name, 'index.ts')))
    .map((entry) => entry.name)
    .sort();
}

export const functionEntry = (name: string): string => join(functionsDir, name, 'index.ts');

/** The flags every Deno command here takes: the import map, node_modules, and no lock file written. */
export const denoFlags = ['--node-modules-dir=manual', '--config', importMap, '--no-lock'] as const;

/** The environment of a Deno command: the caller's, with Deno's cache in node_modules and no update check. */
export function denoProcessEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DENO_DIR: join(projectRoot, 'node_modules', '.cache', 'deno'),
    DENO_NO_UPDATE_CHECK: '1',
    DENO_NO_PROMPT: '1',
    NO_COLOR: '1',
    RUST_BACKTRACE: '0',
    ...extra,
  };
}
