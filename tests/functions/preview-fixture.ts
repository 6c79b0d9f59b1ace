/**
 * A fixture web server for the preview fetch's tests: routes written as real servers answer, every
 * request recorded with its headers, on loopback (the fetch reaches it through its test-only allow
 * list, preview-allow.ts). `listen` takes an address so a second server can take the same port on
 * another loopback address (127.0.0.2), standing in for where a rebinding resolver would send it.
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

export interface Fixture {
  port: number;
  /** Every request, in order: its path and headers. */
  requests: { path: string; headers: IncomingMessage['headers'] }[];
  close(): Promise<void>;
}

const fixtures = new URL('./fixtures/', import.meta.url);
/** A certificate for `preview.test` (self-signed, valid for a century) and its key. */
export const TEST_CERT = readFileSync(new URL('preview-test.crt', fixtures), 'utf8');
const TEST_KEY = readFileSync(new URL('preview-test.key', fixtures), 'utf8');

export async function startFixture(
  routes: Record<string, Route>,
  { host = '127.0.0.1', port = 0, tls = false }: { host?: string; port?: number; tls?: boolean } = {},
): Promise<Fixture> {
  const requests: Fixture['requests'] = [];
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    requests.push({ path: req.url ?? '', headers: req.headers });
    const route = routes[new URL(req.url ?? '/', 'http://x').pathname];
    if (route) route(req, res);
    else res.writeHead(404, { 'Content-Type': 'text/html' }).end('<title>Not found</title>');
  };
  const server = tls ? createHttpsServer({ cert: TEST_CERT, key: TEST_KEY }, handler) : createHttpServer(handler);
  await new Promise<void>((done) => server.listen(port, host, done));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** An HTML answer. */
export const html =
  (body: string, headers: Record<string, string> = {}): Route =>
  (_req, res) =>
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', ...headers }).end(body);

/** A redirect to `location`. */
export const redirect =
  (location: string, status = 302, headers: Record<string, string> = {}): Route =>
  (_req, res) =>
    res.writeHead(status, { Location: location, ...headers }).end();

// A 1×1 transparent PNG, as an image editor exports it.
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** An HTML body that never ends: 64 KB chunks for as long as the client reads them. */
export function endless(onClose: () => void = () => {}, status = 200): Route {
  return (_req, res) => {
    res.writeHead(status, { 'Content-Type': 'text/html' });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const pump = () => {
      while (!res.destroyed && res.write(chunk));
    };
    res.on('drain', pump);
    res.on('close', onClose);
    pump();
  };
}
