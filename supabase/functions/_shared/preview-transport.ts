/**
 * One request of the preview fetch, on `node:http` / `node:https` (Node, and Deno through its Node
 * compatibility): connected to the address the caller checked, through a `lookup` that answers only
 * it, so no second lookup happens; TLS still sends the host name (SNI) and verifies the certificate
 * against it. A redirect is answered without reading its body; a body is read through its
 * decompression with a byte cap on what comes off the wire and on what it decodes to, and the
 * request is torn down as soon as the cap, the deadline or an unwanted content type is reached.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Transform } from 'node:stream';
import type { CheckedAddress } from './preview-address.ts';

export interface Hop {
  url: URL;
  /** Where to connect: the checked addresses, tried in order, never looked up again. */
  addresses: readonly CheckedAddress[];
  headers: Record<string, string>;
  /** The epoch milliseconds by which everything (connect, headers, body) is done. */
  deadline: number;
  maxBytes: number;
  /** Whether a body of this content type (lower-cased, without parameters) is wanted. */
  wants: (contentType: string) => boolean;
  /** Extra trusted certificates, for tests of TLS against a fixture server. */
  ca?: string;
  /** GET by default; HEAD for a check that wants only the status. */
  method?: 'GET' | 'HEAD';
}

export type HopResult =
  | { kind: 'redirect'; status: number; location: string | null }
  | { kind: 'body'; contentType: string; charset: string | null; body: Uint8Array }
  | { kind: 'unwanted'; status: number; contentType: string }
  | { kind: 'failed'; reason: 'timeout' | 'too_large' | 'connect' | 'bad_response' };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * A lookup that answers every question with the checked addresses: all of them when the socket
 * asks for all (it then tries each in turn, as happy eyeballs does), else the first.
 */
function pinnedLookup(addresses: readonly CheckedAddress[]): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all)
      callback(
        null,
        addresses.map(({ address, family }) => ({ address, family })),
      );
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  }) as LookupFunction;
}

/** The content type without parameters, lower-cased, and its charset parameter. */
export function parseContentType(header: string | undefined): { type: string; charset: string | null } {
  const [type = '', ...params] = (header ?? '').split(';');
  const charset = params
    .map((param) => /^\s*charset\s*=\s*"?([^";\s]+)"?\s*$/i.exec(param)?.[1])
    .find((value) => value !== undefined);
  return { type: type.trim().toLowerCase(), charset: charset?.toLowerCase() ?? null };
}

function decoderFor(encoding: string | undefined): Transform | null | 'unknown' {
  switch ((encoding ?? 'identity').trim().toLowerCase()) {
    case 'identity':
    case '':
      return null;
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return 'unknown';
  }
}

export function requestHop(hop: Hop): Promise<HopResult> {
  return new Promise((resolve) => {
    const https = hop.url.protocol === 'https:';
    const hostname = hop.url.hostname.replace(/^\[(.*)\]$/, '$1');
    const options = {
      host: hostname,
      port: hop.url.port ? Number(hop.url.port) : https ? 443 : 80,
      path: `${hop.url.pathname}${hop.url.search}`,
      method: hop.method ?? 'GET',
      headers: hop.headers,
      agent: false as const,
      lookup: pinnedLookup(hop.addresses),
      // An IP literal is sent no server name (RFC 6066); the certificate is checked against it all the same.
      ...(https ? { ...(isIP(hostname) ? {} : { servername: hostname }), ...(hop.ca ? { ca: hop.ca } : {}) } : {}),
    };
    let settled = false;
    let decoder: Transform | null = null;
    const finish = (result: HopResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      decoder?.destroy();
      resolve(result);
    };
    const timer = setTimeout(
      () => finish({ kind: 'failed', reason: 'timeout' }),
      Math.max(0, hop.deadline - Date.now()),
    );
    const req = (https ? httpsRequest : httpRequest)(options, (res) => {
      if (REDIRECTS.has(res.statusCode ?? 0)) {
        const location = res.headers.location ?? null;
        return finish({ kind: 'redirect', status: res.statusCode!, location });
      }
      readBody(res);
    });
    req.on('error', () => finish({ kind: 'failed', reason: 'connect' }));
    req.end();

    function readBody(res: IncomingMessage) {
      const status = res.statusCode ?? 0;
      const { type, charset } = parseContentType(res.headers['content-type']);
      // An error page's body is not read, nor one of a type not asked for.
      if (status < 200 || status > 299 || !hop.wants(type))
        return finish({ kind: 'unwanted', status, contentType: type });
      if (Number(res.headers['content-length'] ?? 0) > hop.maxBytes)
        return finish({ kind: 'failed', reason: 'too_large' });
      const chosen = decoderFor(res.headers['content-encoding']);
      if (chosen === 'unknown') return finish({ kind: 'failed', reason: 'bad_response' });
      decoder = chosen;
      const chunks: Uint8Array[] = [];
      let wire = 0;
      let decoded = 0;
      const take = (chunk: Buffer) => {
        decoded += chunk.length;
        if (decoded > hop.maxBytes) return finish({ kind: 'failed', reason: 'too_large' });
        chunks.push(chunk);
      };
      const done = () => {
        const body = new Uint8Array(decoded);
        let at = 0;
        for (const chunk of chunks) {
          body.set(chunk, at);
          at += chunk.length;
        }
        finish({ kind: 'body', contentType: type, charset, body });
      };
      res.on('data', (chunk: Buffer) => {
        wire += chunk.length;
        if (wire > hop.maxBytes) return finish({ kind: 'failed', reason: 'too_large' });
        if (decoder) decoder.write(chunk);
        else take(chunk);
      });
      res.on('error', () => finish({ kind: 'failed', reason: 'connect' }));
      // A connection that closes before the whole body came is no answer.
      res.on('close', () => {
        if (!res.complete) finish({ kind: 'failed', reason: 'connect' });
      });
      if (decoder) {
        decoder.on('data', take);
        decoder.on('error', () => finish({ kind: 'failed', reason: 'bad_response' }));
        decoder.on('end', done);
        res.on('end', () => decoder?.end());
      } else {
        res.on('end', done);
      }
    }
  });
}
