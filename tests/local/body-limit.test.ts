/**
 * A body over the limit is answered 413 and the client reads that answer: the stack reads (and
 * discards) the rest of the upload before it answers, so the connection is never reset under a
 * client still sending (supabase/local/body-limit.ts). Real sockets (node:http) against the stack
 * listening on a loopback port, uploading 1–5 MB in 64 KiB chunks to every route family, with
 * Content-Length and chunked, one after another on a keep-alive connection.
 */
import { request, Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type RunningStack } from '../../supabase/local/server.ts';
import { TEST_ANON_KEY, TEST_JWT_SECRET } from '../support/test-keys.ts';
import { freshDb } from '../support/db.ts';
import { mulberry32 } from '../support/prng.ts';

let stack: RunningStack;
beforeAll(async () => {
  stack = await startStack({
    db: await freshDb(),
    port: 0,
    host: '127.0.0.1',
    jwtSecret: TEST_JWT_SECRET,
    reminderTiming: false,
    autoAnalyze: false,
  });
});
afterAll(async () => {
  await stack.close();
  await stack.db.close();
});

interface Upload {
  status: number;
  body: string;
  /** ECONNRESET, EPIPE and the like: the client lost the answer. */
  error?: string;
}

/** Each upload goes in this many writes, a few milliseconds apart: the pace of a real network, not loopback's. */
const WRITES = 48;
const PAUSE_MS = 15;

/**
 * Sends `size` bytes to `path` in chunks, each written once the one before has gone, and reads
 * the answer. Done when the whole body is sent and the answer read, or at the first error: an
 * answer read while the rest of the upload is refused (EPIPE, ECONNRESET) is a failure too.
 */
function upload(agent: Agent, path: string, size: number, chunked: boolean): Promise<Upload> {
  return new Promise((resolve) => {
    const url = new URL(path, stack.url);
    const headers: Record<string, string> = { apikey: TEST_ANON_KEY, 'Content-Type': 'application/json' };
    if (chunked) headers['Transfer-Encoding'] = 'chunked';
    else headers['Content-Length'] = String(size);
    const req = request(url, { method: 'POST', headers, agent });
    let answer: { status: number; body: string } | undefined;
    let sentAll = false;
    let settled = false;
    const fail = (error: NodeJS.ErrnoException) => {
      if (settled) return;
      settled = true;
      resolve({ status: answer?.status ?? 0, body: answer?.body ?? '', error: error.code ?? error.message });
    };
    const maybeDone = () => {
      if (settled || !answer || !sentAll) return;
      settled = true;
      resolve(answer);
    };
    req.on('error', fail);
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('error', fail);
      res.on('end', () => {
        answer = { status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') };
        maybeDone();
      });
    });
    let sent = 0;
    const next = () => {
      if (settled) return;
      if (sent >= size) {
        req.end(() => {
          sentAll = true;
          maybeDone();
        });
        return;
      }
      const part = Buffer.alloc(Math.min(Math.ceil(size / WRITES), size - sent), 'x');
      sent += part.length;
      req.write(part, (error) => {
        if (error) fail(error);
        else setTimeout(next, PAUSE_MS);
      });
    };
    next();
  });
}

const TEXT = expect.any(String);

/** One path of each route family, and its 413 body in that family's error shape. */
const families: { path: string; body: Record<string, unknown> }[] = [
  { path: '/auth/v1/signup', body: { code: 'request_too_large', error_code: 'request_too_large', msg: TEXT } },
  { path: '/rest/v1/rpc/sync_push', body: { code: 'request_too_large', message: TEXT, details: null, hint: null } },
  { path: '/functions/v1/send-email', body: { code: 'request_too_large', error: TEXT } },
  { path: '/api/send-email', body: { code: 'request_too_large', error: TEXT } },
  {
    path: '/_checkout/v1/checkout/sessions',
    body: { error: { type: 'invalid_request_error', code: 'request_too_large', message: TEXT } },
  },
  { path: '/_mailbox/messages.json', body: { code: 'request_too_large', message: TEXT } },
  { path: '/Dashboard', body: { code: 'request_too_large', message: TEXT } },
];

describe('a body over the limit', () => {
  for (const chunked of [false, true]) {
    it(`is answered 413 on every route, and the client reads it (${chunked ? 'chunked' : 'Content-Length'})`, async () => {
      const prng = mulberry32(chunked ? 4341 : 4340);
      // One keep-alive connection: after each 413 the next upload goes on the same socket.
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (let round = 0; round < 2; round++) {
          for (const { path, body } of families) {
            const size = (1 + prng.int(5)) * 1024 * 1024 + 1 + prng.int(1000);
            const answer = await upload(agent, path, size, chunked);
            expect({ path, size, error: answer.error, status: answer.status }).toEqual({
              path,
              size,
              error: undefined,
              status: 413,
            });
            expect(JSON.parse(answer.body), path).toEqual(body);
          }
        }
      } finally {
        agent.destroy();
      }
    });
  }

  it('leaves a body within the limit to its route, sent in chunks', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const body = JSON.stringify({ p_username: 'someone', pad: 'y'.repeat(200_000) });
      const answer = await new Promise<Upload>((resolve, reject) => {
        const req = request(new URL('/rest/v1/rpc/username_available', stack.url), {
          method: 'POST',
          headers: { apikey: TEST_ANON_KEY, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
          agent,
        });
        req.on('error', reject);
        req.on('response', (res) => {
          const parts: Buffer[] = [];
          res.on('data', (part: Buffer) => parts.push(part));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }));
        });
        for (let at = 0; at < body.length; at += 50_000) req.write(body.slice(at, at + 50_000));
        req.end();
      });
      // The function has no `pad` argument: PostgREST's 404 for the signature, so the body was read whole.
      expect(answer.status).toBe(404);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'PGRST202' });
    } finally {
      agent.destroy();
    }
  });
});
