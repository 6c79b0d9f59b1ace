/**
 * The load run's clients (tests/bench/load.ts), in their own process so that making requests
 * does not slow the server being measured. Each client syncs as the app does, over the same
 * RPCs: push a few queued mutations, then pull from its cursor until the server has no more,
 * then waits a moment (a person's next change), for the configuration's seconds. Prints one JSON line:
 * every push's and pull's duration, and every error.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';

export interface LoadClient {
  token: string;
  directoryId: string;
}

export interface LoadConfig {
  url: string;
  anonKey: string;
  seconds: number;
  /** Mutations per push: at random from 1 to this. */
  batch: number;
  /** Pause between a client's syncs, at random in [0, 2 × mean]. */
  thinkMs: number;
  clients: LoadClient[];
}

export interface LoadResult {
  push: number[];
  /** When each push started, in seconds from the run's start (the soak's figures per minute). */
  pushAt: number[];
  pull: number[];
  mutations: number;
  /** New links the server applied, per client (in config order): the soak counts them on the server. */
  created: number[];
  errors: string[];
}

async function rpc(config: LoadConfig, client: LoadClient, fn: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${config.url}/rest/v1/rpc/${fn}`, {
    method: 'POST',
    headers: {
      apikey: config.anonKey,
      authorization: `Bearer ${client.token}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${fn} ${response.status}: ${text.slice(0, 200)}`);
  return JSON.parse(text);
}

/** A client's next mutations: mostly new links, some edits and favourites of its earlier ones. */
function mutations(client: LoadClient, made: string[], n: number) {
  return Array.from({ length: n }, (_, i) => {
    const id = randomUUID();
    const earlier = made.length > 0 ? made[Math.floor(Math.random() * made.length)] : undefined;
    if (earlier && i % 3 === 1)
      return { id, name: 'link.update', args: { id: earlier, title: `Edited ${id.slice(0, 8)}` } };
    if (earlier && i % 3 === 2)
      return { id, name: 'link.set_favorite', args: { id: earlier, value: Math.random() < 0.5 } };
    const link = randomUUID();
    made.push(link);
    return {
      id,
      name: 'link.create',
      args: {
        id: link,
        directory_id: client.directoryId,
        url: `https://load.example/${link}`,
        title: 'Load test link',
      },
    };
  });
}

async function runClient(
  config: LoadConfig,
  index: number,
  started: number,
  until: number,
  result: LoadResult,
): Promise<void> {
  const client = config.clients[index]!;
  const made: string[] = [];
  let cursor: string | null = null;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  await sleep(Math.random() * config.thinkMs); // clients do not all start in the same millisecond
  while (performance.now() < until) {
    try {
      const batch = mutations(client, made, 1 + Math.floor(Math.random() * config.batch));
      let began = performance.now();
      result.pushAt.push((began - started) / 1000);
      const pushed = (await rpc(config, client, 'sync_push', { p_mutations: batch })) as {
        results: { status: string; message?: string }[];
      };
      result.push.push(performance.now() - began);
      result.mutations += batch.length;
      batch.forEach((mutation, i) => {
        if (mutation.name === 'link.create' && pushed.results[i]?.status === 'applied') result.created[index]! += 1;
      });
      const refused = pushed.results.filter((r) => r.status !== 'applied');
      if (refused.length > 0) result.errors.push(`push refused: ${refused[0]?.message ?? 'no message'}`);
      for (let more = true; more;) {
        began = performance.now();
        const page = (await rpc(config, client, 'sync_pull', { p_cursor: cursor, p_limit: 5000 })) as {
          cursor: string;
          more: boolean;
        };
        result.pull.push(performance.now() - began);
        cursor = page.cursor;
        more = page.more;
      }
    } catch (error) {
      result.errors.push(error instanceof Error ? error.message : String(error));
    }
    await sleep(Math.random() * 2 * config.thinkMs);
  }
}

async function main(): Promise<void> {
  let input = '';
  for await (const chunk of process.stdin) input += String(chunk);
  const config = JSON.parse(input) as LoadConfig;
  const result: LoadResult = {
    push: [],
    pushAt: [],
    pull: [],
    mutations: 0,
    created: config.clients.map(() => 0),
    errors: [],
  };
  const started = performance.now();
  const until = started + config.seconds * 1000;
  await Promise.all(config.clients.map((_, index) => runClient(config, index, started, until, result)));
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

await main();
