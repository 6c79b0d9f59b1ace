/**
 * Bad input at scale (docs/scale.md): what the server answers the scale account when a request is
 * wrong, timed from outside as a client sends it, each checked against the server's rows: a push of
 * more changes than one push takes (refused whole: nothing of it written), and pulls with a cursor
 * the server cannot use (expired, another user's, from the future): answered `reset: true` with the
 * first page of a pull from scratch, never an error.
 */
import { randomUUID } from 'node:crypto';
import type { RunningStack } from '../../supabase/local/server.ts';
import { accessToken } from './load.ts';
import type { Account } from './setup.ts';
import type { Measure } from './stats.ts';

const encode = (cursor: object) => Buffer.from(JSON.stringify(cursor)).toString('base64');

export async function badInputAtScale(
  stack: RunningStack,
  account: Account,
  directoryId: string,
  log: (message: string) => void,
): Promise<Measure[]> {
  const token = await accessToken(stack, account.email, account.password);
  const rpc = async (name: string, body: object) => {
    const started = performance.now();
    const response = await fetch(`${stack.url}/rest/v1/rpc/${name}`, {
      method: 'POST',
      headers: { apikey: stack.keys.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, text, ms: performance.now() - started };
  };
  const links = async () =>
    Number(
      (
        await stack.db.query<{ n: string }>(
          'select count(*) as n from public.saved_links where owner_id = $1 and deleted_at is null',
          [account.id],
        )
      ).rows[0]?.n ?? 0,
    );

  const before = await links();
  const mutations = Array.from({ length: 501 }, (_, i) => ({
    id: randomUUID(),
    name: 'link.create',
    args: { id: randomUUID(), directory_id: directoryId, url: `https://too-many.test/${i}`, title: `Too many ${i}` },
  }));
  const tooMany = await rpc('sync_push', { p_mutations: mutations });
  const after = await links();
  log(
    `bad input: a push of 501 answered ${tooMany.status} in ${tooMany.ms.toFixed(0)} ms: ${tooMany.text.slice(0, 120)}`,
  );
  if (tooMany.status < 400 || tooMany.status >= 500 || !tooMany.text.includes('at most 500') || after !== before) {
    throw new Error(
      `a push of 501 changes: ${tooMany.status} ${tooMany.text.slice(0, 200)}; links ${before} → ${after}`,
    );
  }

  const cursors = {
    'older than every change': encode({ v: 1, u: account.id, since: '3', dirs: [] }),
    "another user's": encode({ v: 1, u: randomUUID(), since: '3', dirs: [] }),
    'from the future': encode({ v: 1, u: account.id, since: '999999999999', dirs: [] }),
    'not a cursor': 'not-a-cursor',
  };
  const resets: number[] = [];
  for (const [kind, cursor] of Object.entries(cursors)) {
    const pulled = await rpc('sync_pull', { p_cursor: cursor, p_limit: 10_000 });
    const body =
      pulled.status === 200
        ? (JSON.parse(pulled.text) as { reset?: boolean; changes?: { user_profiles?: unknown[] } })
        : {};
    // A pull from scratch starts with what the user may see; their own profile row is always in it.
    const rows = body.changes?.user_profiles?.length ?? 0;
    log(
      `bad input: a pull with a cursor ${kind}: ${pulled.status}, reset ${String(body.reset)}, ${rows} profile row, in ${pulled.ms.toFixed(0)} ms`,
    );
    if (pulled.status !== 200 || (kind !== 'older than every change' && body.reset !== true) || rows !== 1) {
      throw new Error(`a pull with a cursor ${kind}: ${pulled.status} ${pulled.text.slice(0, 200)}`);
    }
    resets.push(pulled.ms);
  }
  // A NUL cannot be text in PostgreSQL: the API refuses the request as bad JSON (400), as hosted
  // PostgREST does, never a 500.
  const nul = await rpc('sync_pull', { p_cursor: 'cursor\u0000', p_limit: 10_000 });
  log(`bad input: a pull with a NUL in its cursor: ${nul.status} ${nul.text.slice(0, 100)}`);
  if (nul.status !== 400) throw new Error(`a pull with a NUL in its cursor: ${nul.status} ${nul.text.slice(0, 200)}`);
  return [
    {
      name: 'a push of 501 changes → refused whole',
      unit: 'ms',
      samples: [tooMany.ms],
      note: `answered ${tooMany.status} 'Too many changes in one push: at most 500.'; the account's links ${before.toLocaleString('en')} before and after`,
    },
    {
      name: 'a pull with a cursor the server cannot use → first page of a pull from scratch',
      unit: 'ms',
      samples: resets,
      note: "cursors older than every change (answered as a pull since then), another user's, from the future and not a cursor: each answered 200 with the first page of a pull from scratch (reset true for the three the server can tell apart)",
    },
  ];
}
