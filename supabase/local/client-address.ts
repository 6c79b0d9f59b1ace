/**
 * The client address of a request: the socket's peer, unless that peer is a trusted reverse
 * proxy (TRUSTED_PROXIES), in which case the right-most X-Forwarded-For entry that is not itself
 * a trusted proxy. A client-supplied X-Forwarded-For is never believed from an untrusted peer.
 * Requests without a socket come from inside the process (functions calling the stack, tests),
 * whose X-Forwarded-For is the stack's own.
 */
import type { Context } from 'hono';

/** The address of a request made inside the process, with no socket and no X-Forwarded-For. */
export const INTERNAL = 'internal';

interface NodeBindings {
  incoming?: { socket?: { remoteAddress?: string } };
}

/** `::ffff:127.0.0.1` is 127.0.0.1. */
export function normaliseAddress(address: string): string {
  const trimmed = address.trim().replace(/^\[|\]$/g, '');
  return trimmed.startsWith('::ffff:') && trimmed.includes('.') ? trimmed.slice(7) : trimmed;
}

export function isLoopback(address: string): boolean {
  const a = normaliseAddress(address);
  return a === '::1' || a === 'localhost' || /^127\./.test(a);
}

export function socketPeer(c: Context): string | undefined {
  const remote = (c.env as NodeBindings | undefined)?.incoming?.socket?.remoteAddress;
  return remote ? normaliseAddress(remote) : undefined;
}

export function clientAddress(c: Context, trustedProxies: readonly string[]): string {
  const forwarded = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((part) => normaliseAddress(part))
    .filter(Boolean);
  const peer = socketPeer(c);
  if (!peer) return forwarded[0] ?? INTERNAL;
  const trusted = new Set(trustedProxies.map(normaliseAddress));
  if (!trusted.has(peer)) return peer;
  for (let i = forwarded.length - 1; i >= 0; i--) {
    const hop = forwarded[i];
    if (hop && !trusted.has(hop)) return hop;
  }
  return peer;
}
