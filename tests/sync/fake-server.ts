/**
 * An in-memory model of sync_push / sync_pull (docs/sync-protocol.md) for engine tests:
 * rows carry an increasing txid, the cursor is the last txid seen, tombstones are rows with
 * deleted_at, answers are recorded per mutation id (idempotent replay). Only the rules the
 * tests need are modelled (the 30-link limit); `rejectNext` and `failNext` inject the rest.
 */
import {
  SyncTransportError,
  type PullAnswer,
  type PushAnswer,
  type PushResult,
  type SyncTransport,
  type WireMutation,
} from '../../src/backend/sync-transport.ts';

type Row = Record<string, unknown> & { id: string; txid?: string };

const TABLE_OF: Record<string, string> = {
  profile: 'user_profiles',
  directory: 'link_directories',
  link: 'saved_links',
  member: 'directory_members',
  event: 'calendar_events',
  task: 'calendar_events',
  poll: 'voting_posts',
};

/** Columns a new row gets when the args leave them out (the real server's defaults), so rows are whole. */
function defaults(table: string, userId: string): Record<string, unknown> {
  switch (table) {
    case 'user_profiles':
      return { email: null, full_name: '', username: null, bio: '', subscription_tier: 'free', time_zone: 'UTC' };
    case 'link_directories':
      return { description: null, color: 'blue', is_public: false, has_password: false, owner_id: userId };
    case 'saved_links':
      return { notes: null, description: null, tags: [], is_favorite: false, created_by: null, owner_id: userId };
    case 'directory_members':
      return { role: 'viewer', inviter_id: null };
    case 'calendar_events':
      return {
        description: null,
        starts_at: null,
        ends_at: null,
        owner_id: userId,
        is_task: false,
        priority: null,
        is_completed: false,
        series_id: null,
        recurrence_rule: 'none',
        recurrence_end_date: null,
      };
    case 'voting_posts':
      return {
        description: null,
        deadline: null,
        directory_id: null,
        created_by: null,
        created_by_id: userId,
        is_active: true,
      };
    default:
      return {};
  }
}

export class FakeServer {
  readonly tables = new Map<string, Map<string, Row>>();
  private version = 0;
  readonly answers = new Map<string, PushResult>();
  readonly pushed: WireMutation[][] = [];
  readonly pulls: (string | null)[] = [];
  /** The limit each pull asked for, in order. */
  readonly pullLimits: number[] = [];
  private failures: { call: 'push' | 'pull'; error: SyncTransportError }[] = [];
  private rejections = new Map<string, { code: string; message: string }>();
  purgeNext: string[] = [];
  resetNext = false;
  inFlight = 0;
  maxInFlight = 0;
  constructor(readonly userId: string) {}

  /** The API's request body limit (the local stack's is 1 MiB). */
  maxBodyBytes = 1024 * 1024;
  /** Pushes answered 413 (too large, or more than 500 mutations). */
  readonly refused: WireMutation[][] = [];

  /** Milliseconds each call takes (real time), to expose overlapping drainers. */
  latencyMs = 0;

  table(name: string): Map<string, Row> {
    let table = this.tables.get(name);
    if (!table) this.tables.set(name, (table = new Map()));
    return table;
  }

  /** Writes a row as the server would (new txid, timestamps). */
  write(name: string, input: { id: string; [key: string]: unknown } | { id: string }): Row {
    const row = input as Row;
    const previous = this.table(name).get(row.id);
    const stored = {
      ...defaults(name, this.userId),
      created_at: '2026-03-01T00:00:00.000Z',
      ...previous,
      ...row,
      txid: String(++this.version),
      updated_at: new Date(Date.UTC(2026, 2, 1, 0, 0, this.version)).toISOString(),
    };
    this.table(name).set(row.id, stored);
    return stored;
  }

  /** Another user's commit: the server moves on, with nothing this user sees. */
  advance(): void {
    this.version += 1;
  }

  tombstone(name: string, id: string): Row | undefined {
    const row = this.table(name).get(id);
    return row ? this.write(name, { ...row, deleted_at: '2026-03-10T00:00:00.000Z' }) : undefined;
  }

  failNext(call: 'push' | 'pull', kind: SyncTransportError['kind'], times = 1, status: number | null = null) {
    for (let i = 0; i < times; i += 1)
      this.failures.push({ call, error: new SyncTransportError(kind, `${kind} failure`, status) });
  }

  rejectNext(mutationId: string, code: string, message: string) {
    this.rejections.set(mutationId, { code, message });
  }

  transport(): SyncTransport {
    return {
      push: (mutations) => this.call('push', () => this.push(mutations)),
      pull: (cursor, limit) => this.call('pull', () => this.pull(cursor, limit)),
    };
  }

  private async call<T>(call: 'push' | 'pull', run: () => T): Promise<T> {
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      if (this.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.latencyMs));
      else await Promise.resolve();
      const index = this.failures.findIndex((failure) => failure.call === call);
      if (index >= 0) {
        const [failure] = this.failures.splice(index, 1);
        throw failure!.error;
      }
      return run();
    } finally {
      this.inFlight -= 1;
    }
  }

  private push(mutations: WireMutation[]): PushAnswer {
    // As the API and sync_push refuse them: a body over the limit, more than 500 mutations.
    const bytes = new TextEncoder().encode(JSON.stringify({ p_mutations: mutations })).byteLength;
    if (bytes > this.maxBodyBytes || mutations.length > 500) {
      this.refused.push(mutations);
      throw new SyncTransportError('server', 'Payload too large', 413);
    }
    this.pushed.push(mutations);
    return { results: mutations.map((mutation) => this.answer(mutation)) };
  }

  private answer(mutation: WireMutation): PushResult {
    const recorded = this.answers.get(mutation.id);
    if (recorded) return recorded;
    const result = this.apply(mutation);
    this.answers.set(mutation.id, result);
    return result;
  }

  private apply({ id, name, args }: WireMutation): PushResult {
    const table = TABLE_OF[name.split('.')[0] ?? ''] ?? 'unknown';
    const rowId = String(args.id ?? '');
    const existing = this.table(table).get(rowId);
    const restore = () => ({
      rows: existing && !existing.deleted_at ? { [table]: [existing] } : {},
      deleted: existing && !existing.deleted_at ? {} : { [table]: [rowId] },
    });
    const rejection = this.rejections.get(id);
    if (rejection) return { id, status: 'rejected', ...rejection, ...restore() };
    if (name === 'link.create') {
      const owned = [...this.table('saved_links').values()].filter((row) => !row.deleted_at).length;
      if (owned >= 30) {
        return {
          id,
          status: 'rejected',
          code: 'limit_reached',
          message: 'Upgrade to Pro to save more links.',
          ...restore(),
        };
      }
    }
    if (name.endsWith('.delete') || name === 'member.remove') {
      const dead = this.tombstone(table, rowId);
      return { id, status: 'applied', rows: dead ? { [table]: [dead] } : {} };
    }
    if (
      name.endsWith('.create') ||
      name === 'member.invite' ||
      name.startsWith('link.') ||
      name.startsWith('event.') ||
      name.startsWith('task.')
    ) {
      const fields = { ...args };
      if (name === 'link.set_favorite' || name === 'task.set_completed') {
        delete fields.value;
        fields[name === 'link.set_favorite' ? 'is_favorite' : 'is_completed'] = args.value;
      }
      if (name === 'directory.create') fields.owner_id ??= this.userId;
      if (name === 'link.create') {
        fields.owner_id = this.table('link_directories').get(String(args.directory_id))?.owner_id ?? this.userId;
        fields.created_by = this.userId;
      }
      const row = this.write(table, { ...(existing ?? {}), ...fields, id: rowId });
      return { id, status: 'applied', rows: { [table]: [row] } };
    }
    return { id, status: 'applied', rows: {} };
  }

  private pull(cursor: string | null, limit: number): PullAnswer {
    this.pulls.push(cursor);
    this.pullLimits.push(limit);
    const reset = this.resetNext || (cursor !== null && !/^\d+$/.test(cursor));
    this.resetNext = false;
    const since = reset || cursor === null ? 0 : Number(cursor);
    const changed: { table: string; row: Row }[] = [];
    for (const [table, rows] of this.tables) {
      for (const row of rows.values()) if (Number(row.txid) > since) changed.push({ table, row });
    }
    changed.sort((a, b) => Number(a.row.txid) - Number(b.row.txid));
    const page = changed.slice(0, limit);
    const changes: Record<string, Row[]> = {};
    for (const { table, row } of page) (changes[table] ??= []).push(row);
    const last = page.at(-1);
    const purge = this.purgeNext;
    this.purgeNext = [];
    const more = changed.length > page.length;
    return {
      // Like sync_pull, a last page's cursor is where the server is, whatever this user saw.
      cursor: String(more && last ? Number(last.row.txid) : Math.max(since, this.version)),
      more,
      reset,
      changes,
      purge: { directory_ids: purge },
    };
  }
}

/** Timers the test fires by hand; records every delay asked for. */
export class ManualTimers {
  readonly delays: number[] = [];
  private pending = new Map<number, () => void>();
  private next = 0;

  setTimeout = (callback: () => void, ms: number): unknown => {
    this.delays.push(ms);
    const handle = ++this.next;
    this.pending.set(handle, callback);
    return handle;
  };

  clearTimeout = (handle: unknown): void => {
    this.pending.delete(handle as number);
  };

  get scheduled(): number {
    return this.pending.size;
  }

  /** Runs every timer scheduled so far. */
  fireAll(): void {
    const due = [...this.pending.values()];
    this.pending.clear();
    for (const callback of due) callback();
  }
}
