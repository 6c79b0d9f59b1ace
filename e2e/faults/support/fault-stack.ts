/**
 * The fault suite's stack (docs/faults.md): the local stack as a child process on its own PostgreSQL
 * database, so a fault can kill it (SIGKILL, nothing flushed) and start it again on the same data.
 * The database is made fresh per stack from FAULTS_DATABASE_URL (an admin connection to the cluster).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { freePort } from '../../../tests/support/free-port.ts';

export interface FaultStack {
  /** The app's origin (the stack serves the built app and the API). */
  url: string;
  /** The stack's own database. */
  databaseUrl: string;
  /** SIGKILL: the process dies at once, in whatever it was doing. */
  kill(): Promise<void>;
  /** Starts the stack again on the same database and port. */
  start(): Promise<void>;
  /** Stops the stack and drops its database. */
  dispose(): Promise<void>;
  /** A query on the stack's database, as its owner (the server's rows, the evidence of a fault). */
  query<R extends pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<R[]>;
  /** What the stack printed since it last started (the last 20,000 characters). */
  output(): string;
  /** Waits until the running stack has printed `text` (since it last started), e.g. a fault hook's line. */
  waitForOutput(text: string, timeoutMs?: number): Promise<void>;
}

export interface FaultStackOptions {
  /** An admin connection to the cluster the stack's database is made on; default FAULTS_DATABASE_URL. */
  adminUrl?: string;
}

export function adminDatabaseUrl(): string {
  const url = process.env.FAULTS_DATABASE_URL;
  if (!url) throw new Error('FAULTS_DATABASE_URL is not set: the fault suite runs on PostgreSQL (docs/faults.md)');
  return url;
}

async function waitForHealth(url: string, child: ChildProcess, log: () => string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (child.exitCode !== null) throw new Error(`the stack exited (${child.exitCode}):\n${log()}`);
    try {
      const response = await fetch(`${url}/_health`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the stack did not answer /_health in 60 s:\n${log()}`);
}

/** `env`: environment variables of the stack's process (a fault hook's, docs/faults.md). */
export async function startFaultStack(
  label: string,
  env: Record<string, string> = {},
  options: FaultStackOptions = {},
): Promise<FaultStack> {
  const admin = options.adminUrl ?? adminDatabaseUrl();
  const name = `lb_faults_${label.replace(/\W+/g, '_').toLowerCase()}_${randomBytes(3).toString('hex')}`;
  const adminClient = new pg.Client({ connectionString: admin });
  await adminClient.connect();
  await adminClient.query(`create database ${name}`);
  await adminClient.end();
  const databaseUrl = new URL(admin);
  databaseUrl.pathname = `/${name}`;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const secret = process.env.E2E_JWT_SECRET;
  if (!secret) throw new Error('E2E_JWT_SECRET is not set: run the suite through playwright.faults.config.ts');
  let child: ChildProcess | null = null;
  let output = '';
  const pool = new pg.Pool({ connectionString: databaseUrl.toString(), max: 2 });
  // A query on a connection the database's restart has closed fails once; the pool then connects anew.
  pool.on('error', () => undefined);

  const start = async () => {
    output = '';
    // node itself (not npx), so the pid killed is the server's.
    child = spawn(process.execPath, ['--import', 'tsx', 'supabase/local/server.ts'], {
      env: {
        ...process.env,
        ...env,
        HOST: '127.0.0.1',
        PORT: String(port),
        DATABASE_URL: databaseUrl.toString(),
        JWT_SECRET: secret,
        LINKBOARD_AUTH_LIMITS:
          '{"signUp":{"max":10000},"signIn":{"max":10000},"mail":{"max":1000},"verify":{"max":10000}}',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    await waitForHealth(url, child, () => output);
  };

  const kill = async () => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill('SIGKILL');
    await exited;
  };

  await start();
  return {
    url,
    databaseUrl: databaseUrl.toString(),
    kill,
    start,
    async dispose() {
      await kill();
      await pool.end();
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
    async query<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []) {
      return (await pool.query<R>(sql, params)).rows;
    },
    output: () => output,
    async waitForOutput(text: string, timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      while (!output.includes(text)) {
        if (Date.now() > until) throw new Error(`the stack did not print "${text}" in ${timeoutMs} ms:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}
