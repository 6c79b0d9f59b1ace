/**
 * One small interface over the two databases the local stack can run on:
 * embedded PGlite (the default) and a real PostgreSQL reached through DATABASE_URL.
 */
import { PGlite } from '@electric-sql/pglite';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import pg from 'pg';

export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
  /** Runs a script of one or more statements without parameters. */
  exec(text: string): Promise<void>;
}

/** A transaction's statements (Db.transaction). */
export interface Tx extends Sql {
  /**
   * Runs a script of statements without parameters (literals only: `literal`) and gives the rows
   * of its last. On PostgreSQL it is one round trip, with the transaction's BEGIN when it is the
   * transaction's first statement, and with `commit` its COMMIT too: nothing may run after it.
   * On PGlite (no network) the transaction commits as usual when its function resolves.
   */
  script<T = Record<string, unknown>>(text: string, options?: { commit?: boolean }): Promise<{ rows: T[] }>;
}

/** A string as an SQL literal for `Tx.script` (a NUL, which no text may hold, is refused). */
export function literal(value: string | null): string {
  if (value === null) return 'null';
  if (value.includes('\0')) throw new Error('A NUL character cannot be sent in SQL text');
  return pg.escapeLiteral(value);
}

export interface Db extends Sql {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction: committed when fn resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * LISTENs on a channel: each NOTIFY's payload, delivered when its transaction commits. On
   * PostgreSQL it holds one connection of its own, reconnecting after an error. Returns its end.
   */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** A postgres:// URL; when set, the real server is used. */
  databaseUrl?: string;
  /** PGlite data directory; omitted means in memory. */
  dataDir?: string;
  /** A PGlite data dump (from dumpDataDir) to start from. */
  loadDataDir?: Blob | File;
}

export async function openDb(options: OpenOptions = {}): Promise<Db> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  return openPglite(options);
}

export async function openPglite(options: Omit<OpenOptions, 'databaseUrl'> = {}): Promise<Db & { pglite: PGlite }> {
  const pglite = await PGlite.create({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    extensions: { pgcrypto },
  });
  const wrap = (target: Pick<PGlite, 'query' | 'exec'>): Sql => ({
    async query<T>(text: string, params?: unknown[]) {
      const result = await target.query<T>(text, params as unknown[]);
      return { rows: result.rows };
    },
    async exec(text: string) {
      await target.exec(text);
    },
  });
  return {
    kind: 'pglite',
    pglite,
    ...wrap(pglite),
    transaction: (fn) =>
      pglite.transaction((tx) => {
        // As on PostgreSQL, nothing may run after a script with `commit` (here the commit
        // itself is pglite.transaction's, when fn resolves).
        let ended = false;
        const inner = wrap(tx);
        const open = () => {
          if (ended) throw new Error('The transaction was committed: no statement may follow');
        };
        return fn({
          query: async (text, params) => (open(), inner.query(text, params)),
          exec: async (text) => (open(), inner.exec(text)),
          async script<T>(text: string, options?: { commit?: boolean }) {
            open();
            if (options?.commit) ended = true;
            const results = await tx.exec(text);
            return { rows: (results.at(-1)?.rows ?? []) as T[] };
          },
        });
      }),
    listen: async (channel, onPayload) => {
      const unlisten = await pglite.listen(channel, onPayload);
      return async () => {
        if (!pglite.closed) await unlisten();
      };
    },
    close: () => pglite.close(),
  };
}

export function openPostgres(url: string): Db {
  const pool = new pg.Pool({ connectionString: url, max: 8 });
  // A client that errors while idle must not bring the process down.
  pool.on('error', () => {});
  return {
    kind: 'postgres',
    async query<T>(text: string, params?: unknown[]) {
      const result = await pool.query(text, params);
      return { rows: result.rows as T[] };
    },
    async exec(text: string) {
      await pool.query(text);
    },
    async transaction(fn) {
      const client = await pool.connect();
      // A checked-out client has no listener of the pool's: the database closing the connection
      // between statements (a restart, an administrator) would be an unhandled 'error' event that
      // ends the process. The error is kept; the next statement fails and the client is discarded.
      let lost: Error | undefined;
      const onError = (error: Error) => {
        lost ??= error;
      };
      client.on('error', onError);
      // BEGIN goes with the first statement when that is a script (one round trip less), else
      // alone before it; a script with `commit` ends the transaction.
      let begun = false;
      let ended = false;
      const open = async () => {
        if (ended) throw new Error('The transaction was committed: no statement may follow');
        if (!begun) await client.query('begin');
        begun = true;
      };
      const tx: Tx = {
        async query<T>(text: string, params?: unknown[]) {
          await open();
          const result = await client.query(text, params);
          return { rows: result.rows as T[] };
        },
        async exec(text: string) {
          await open();
          await client.query(text);
        },
        async script<T>(text: string, options?: { commit?: boolean }) {
          if (ended) throw new Error('The transaction was committed: no statement may follow');
          const first = !begun;
          begun = true;
          if (options?.commit) ended = true;
          const sent = `${first ? 'begin;\n' : ''}${text}${options?.commit ? ';\ncommit' : ''}`;
          const answer = (await client.query(sent)) as unknown as pg.QueryResult | pg.QueryResult[];
          const results = Array.isArray(answer) ? answer : [answer];
          const last = results[results.length - 1 - (options?.commit ? 1 : 0)];
          return { rows: (last?.rows ?? []) as T[] };
        },
      };
      let failed: Error | undefined;
      try {
        const value = await fn(tx);
        if (begun && !ended) await client.query('commit');
        return value;
      } catch (error) {
        failed = error instanceof Error ? error : new Error(String(error));
        // A script whose COMMIT failed has ended its transaction: the ROLLBACK is only a warning.
        if (!lost && begun) await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        client.removeListener('error', onError);
        // A client whose connection was lost goes, never back to the pool.
        client.release(lost ?? (failed && isConnectionLoss(failed) ? failed : undefined));
      }
    },
    listen: (channel, onPayload) => listenPostgres(url, channel, onPayload),
    close: () => pool.end(),
  };
}

/**
 * Whether an error means the connection to PostgreSQL is gone or cannot be made (the server
 * stopping, restarting or unreachable): nothing of the statement was committed, and the same
 * request may be tried again. A transaction whose COMMIT was sent and then lost is unknown; the
 * sync protocol's replay makes a retried push safe either way (docs/sync-protocol.md).
 */
export function isConnectionLoss(error: unknown): boolean {
  const e = (error ?? {}) as { code?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  // connection_exception; admin_shutdown, crash_shutdown, cannot_connect_now.
  if (/^08/.test(code) || code === '57P01' || code === '57P02' || code === '57P03') return true;
  if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH'].includes(code)) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  return /Connection terminated|Client has encountered a connection error|not queryable|connection timeout/i.test(
    message,
  );
}

/** A connection of its own that LISTENs, reconnected a second after it fails, until ended. */
async function listenPostgres(
  url: string,
  channel: string,
  onPayload: (payload: string) => void,
): Promise<() => Promise<void>> {
  let ended = false;
  let client: pg.Client | null = null;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => {
      if (message.channel === channel) onPayload(message.payload ?? '');
    });
    next.on('error', () => {
      void next.end().catch(() => undefined);
      if (client === next) client = null;
      if (!ended) retry = setTimeout(() => void connect().catch(() => undefined), 1000);
    });
    await next.connect();
    await next.query(`listen ${pg.escapeIdentifier(channel)}`);
    if (ended) await next.end();
    else client = next;
  };
  await connect();
  return async () => {
    ended = true;
    clearTimeout(retry);
    await client?.end().catch(() => undefined);
    client = null;
  };
}
