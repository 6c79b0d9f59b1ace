/**
 * A broken-link pass over 10,000 links against a local fixture server (docs/bench.md, part
 * `broken-links`; docs/product.md, Broken links): 200 host names the test resolver maps to the
 * fixture on 127.0.0.1 (reached through the fetch's test-only allow list), a tenth answering 404,
 * and links whose hosts resolve to forbidden addresses: 10.0.0.8, a metadata address, and
 * 127.0.0.2, where a trap server on the same port counts every request that reaches it. Records
 * the most requests one host saw at once (at most 2), requests to forbidden addresses (none),
 * and the pass time.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { checkLink, checkLinks, PER_HOST } from '../../supabase/functions/_shared/link-check.ts';
import { allowKey } from '../../supabase/functions/_shared/preview-allow.ts';
import type { Measure } from './stats.ts';

const LINKS = 10_000;
const HOSTS = 200;

export async function brokenLinkPass(log: (message: string) => void = () => {}): Promise<Measure[]> {
  const inFlight = new Map<string, number>();
  let maxPerHost = 0;
  let forbidden = 0;
  const site = createServer((req: IncomingMessage, res: ServerResponse) => {
    const host = req.headers.host ?? '';
    const now = (inFlight.get(host) ?? 0) + 1;
    inFlight.set(host, now);
    maxPerHost = Math.max(maxPerHost, now);
    setImmediate(() => {
      inFlight.set(host, inFlight.get(host)! - 1);
      res.writeHead(req.url?.startsWith('/missing') ? 404 : 200, { 'Content-Type': 'text/html' }).end('ok');
    });
  });
  await new Promise<void>((done) => site.listen(0, '127.0.0.1', done));
  const { port } = site.address() as AddressInfo;
  const trap = createServer((_req, res) => {
    forbidden++;
    res.writeHead(200).end();
  });
  await new Promise<void>((done) => trap.listen(port, '127.0.0.2', done));
  try {
    const links = Array.from({ length: LINKS }, (_, i) => {
      const kind = i % 100;
      const host =
        kind === 1
          ? 'inside.bench.test'
          : kind === 2
            ? 'metadata.bench.test'
            : kind === 3
              ? 'rebind.bench.test'
              : `host-${i % HOSTS}.bench.test`;
      const path = i % 10 === 0 ? `/missing/${i}` : `/page/${i}`;
      return { id: String(i), url: `http://${host}:${port}${path}` };
    });
    const resolve = async (name: string) =>
      name === 'inside.bench.test'
        ? ['10.0.0.8']
        : name === 'metadata.bench.test'
          ? ['169.254.169.254']
          : name === 'rebind.bench.test'
            ? ['127.0.0.2']
            : ['127.0.0.1'];
    log(`broken links: one pass over ${LINKS.toLocaleString('en')} links, ${HOSTS} hosts`);
    const start = performance.now();
    const allow = new Set([allowKey('127.0.0.1', port)]);
    const outcomes = await checkLinks(links, (url) => checkLink(url, { resolve, allow }));
    const ms = performance.now() - start;
    const count = (outcome: string) => outcomes.filter((o) => o.outcome === outcome).length;
    const expected = { broken: LINKS / 10, unknown: 300 };
    const wrong =
      outcomes.length !== LINKS || count('broken') !== expected.broken || count('unknown') !== expected.unknown
        ? `outcomes: ${outcomes.length} links, ${count('broken')} broken, ${count('unknown')} unknown (expected ${expected.broken} broken, ${expected.unknown} unknown)`
        : undefined;
    return [
      {
        name: 'broken-link pass: most requests at once to one host',
        unit: 'count',
        samples: [maxPerHost],
        bar: { median: PER_HOST },
        ...(wrong ? { failed: wrong } : {}),
      },
      {
        name: 'broken-link pass: requests to forbidden addresses',
        unit: 'count',
        samples: [forbidden],
        bar: { median: 0 },
      },
      { name: `broken-link pass: ${LINKS.toLocaleString('en')} links`, unit: 'ms', samples: [ms] },
    ];
  } finally {
    site.closeAllConnections();
    trap.closeAllConnections();
    await Promise.all([new Promise((done) => site.close(done)), new Promise((done) => trap.close(done))]);
  }
}
