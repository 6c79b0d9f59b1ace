/**
 * A PostgreSQL cluster of a fault's own (docs/faults.md): made with initdb under /tmp on a free
 * port, run as the `postgres` user when the suite runs as root, stopped and removed at the end, so
 * a fault that stops or restarts PostgreSQL never touches a cluster anything else uses.
 * FAULTS_PG_BIN names the binaries (default /usr/lib/postgresql/15/bin).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { freePort } from '../../../tests/support/free-port.ts';

const run = promisify(execFile);

export interface PrivateCluster {
  /** An admin connection to the cluster (postgres, trust). */
  adminUrl: string;
  /** pg_ctl stop -m fast: every connection is terminated, open transactions roll back. */
  stop(): Promise<void>;
  /** pg_ctl start, waiting until it accepts connections. */
  start(): Promise<void>;
  /** Stops the cluster and removes its files. */
  dispose(): Promise<void>;
}

/** A shell command as the postgres user (initdb and pg_ctl refuse root). */
async function asPostgres(command: string): Promise<void> {
  const root = process.getuid?.() === 0;
  await (root ? run('su', ['postgres', '-s', '/bin/bash', '-c', command]) : run('bash', ['-c', command]));
}

export async function startPrivateCluster(label: string): Promise<PrivateCluster> {
  const bin = process.env.FAULTS_PG_BIN || '/usr/lib/postgresql/15/bin';
  const dir = `/tmp/lb-pg-faults-${label}-${randomBytes(3).toString('hex')}`;
  const port = await freePort();
  const options = `-p ${port} -k /tmp -c fsync=off -c listen_addresses=127.0.0.1`;
  await asPostgres(`${bin}/initdb -D ${dir} -U postgres --auth=trust >/dev/null`);
  const start = () => asPostgres(`${bin}/pg_ctl -D ${dir} -o '${options}' -l ${dir}/log -w start >/dev/null`);
  const stop = () => asPostgres(`${bin}/pg_ctl -D ${dir} -m fast -w stop >/dev/null`);
  await start();
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    async dispose() {
      await stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
