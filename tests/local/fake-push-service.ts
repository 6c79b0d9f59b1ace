/**
 * A push service for tests: a node:http server on 127.0.0.1 that records every request (path,
 * headers, body size) and answers 201, or the status set for a path (410 for a gone subscription).
 * Subscriptions made with `subscription()` carry a real P-256 key and auth secret, so web-push can
 * encrypt to them; the payload is not decrypted.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';

export interface PushRequest {
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  bodyBytes: number;
}

export interface FakePushService {
  origin: string;
  requests: PushRequest[];
  /** The requests that reached this subscription's endpoint. */
  to(endpoint: string): PushRequest[];
  /** Answer this status to the endpoint from now on. */
  answer(endpoint: string, status: number): void;
  /** A new subscription on this service: {endpoint, p256dh, auth}. */
  subscription(): { endpoint: string; p256dh: string; auth: string };
  close(): Promise<void>;
}

export async function startFakePushService(): Promise<FakePushService> {
  const requests: PushRequest[] = [];
  const statuses = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    let bodyBytes = 0;
    req.on('data', (chunk: Buffer) => (bodyBytes += chunk.length));
    req.on('end', () => {
      const path = req.url ?? '/';
      requests.push({ path, method: req.method ?? '', headers: req.headers, bodyBytes });
      res.writeHead(statuses.get(path) ?? 201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const pathOf = (endpoint: string) => new URL(endpoint).pathname;
  return {
    origin,
    requests,
    to: (endpoint) => requests.filter((request) => request.path === pathOf(endpoint)),
    answer: (endpoint, status) => statuses.set(pathOf(endpoint), status),
    subscription: () => {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      return {
        endpoint: `${origin}/push/${randomUUID()}`,
        p256dh: ecdh.getPublicKey().toString('base64url'),
        auth: randomBytes(16).toString('base64url'),
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
