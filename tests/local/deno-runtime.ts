/**
 * Edge Functions served by Deno as hosted Supabase serves them: each function's index.ts run by
 * `deno run` in its own process, where serveOnDeno reads Deno.env and calls Deno.serve
 * (DENO_SERVE_ADDRESS picks a free port on loopback). Deno and its flags are the ones
 * `npm run functions:check` uses (supabase/tools/deno.ts): offline, on the node_modules packages.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { denoBinary, denoFlags, denoProcessEnv, functionEntry, projectRoot } from '../../supabase/tools/deno.ts';

export interface DenoFunctions {
  /** The address Deno serves the function at. */
  url(name: string): string;
  /** What the function's process printed (its console.error lines), for a failure's message. */
  output(name: string): string;
  close(): Promise<void>;
}

interface Served {
  child: ChildProcess;
  url: string;
  output: string[];
}

/** Hosted grants the network and the environment; reading files covers the modules' own. */
const PERMISSIONS = ['--allow-net', '--allow-env', '--allow-read'];

function serveOne(name: string, env: Record<string, string>): Promise<Served> {
  const child = spawn(denoBinary, ['run', ...denoFlags, ...PERMISSIONS, functionEntry(name)], {
    cwd: projectRoot,
    env: denoProcessEnv({ ...env, DENO_SERVE_ADDRESS: 'tcp:127.0.0.1:0' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Should the test process end without close() (a crash), its Deno servers end with it.
  const stop = () => child.kill('SIGTERM');
  process.once('exit', stop);
  child.once('exit', () => process.off('exit', stop));
  const output: string[] = [];
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      const text = chunk.toString();
      output.push(text);
      const listening = /Listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(output.join(''));
      if (listening?.[1]) resolve({ child, url: listening[1], output });
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`deno run ${name} exited (${code}): ${output.join('')}`)));
  });
}

/** Every named function on Deno, with the same environment (as `supabase secrets` would set it). */
export async function serveOnDenoProcesses(
  names: readonly string[],
  env: Record<string, string>,
): Promise<DenoFunctions> {
  const settled = await Promise.allSettled(names.map((name) => serveOne(name, env)));
  const served = new Map<string, Served>();
  settled.forEach((result, i) => {
    if (result.status === 'fulfilled') served.set(names[i]!, result.value);
  });
  const close = async () => {
    await Promise.all(
      [...served.values()].map(
        ({ child }) =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      ),
    );
  };
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) {
    await close();
    throw (failed as PromiseRejectedResult).reason;
  }
  const get = (name: string) => {
    const one = served.get(name);
    if (!one) throw new Error(`${name} is not served on Deno`);
    return one;
  };
  return { url: (name) => get(name).url, output: (name) => get(name).output.join(''), close };
}
