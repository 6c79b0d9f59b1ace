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

export interface Db extends Sql {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction: committed when fn resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
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
    transaction: (fn) => pglite.transaction((tx) => fn(wrap(tx))),
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
      const tx: Sql = {
        async query<T>(text: string, params?: unknown[]) {
          const result = await client.query(text, params);
          return { rows: result.rows as T[] };
        },
        async exec(text: string) {
          await client.query(text);
        },
      };
      try {
        await client.query('begin');
        const value = await fn(tx);
        await client.query('commit');
        return value;
      } catch (error) {
        await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    listen: (channel, onPayload) => listenPostgres(url, channel, onPayload),
    close: () => pool.end(),
  };
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
