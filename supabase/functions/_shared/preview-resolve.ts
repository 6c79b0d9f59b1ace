/**
 * How the preview fetch looks a host name up: every A and AAAA answer, once. The fetch checks all of
 * them and connects to a checked one (preview-transport.ts pins it), so a resolver that answers
 * differently a moment later (DNS rebinding) is never asked again for that connection. Tests inject
 * their own resolver; `node:dns` is on Node and on Deno (its Node compatibility) alike.
 */
import { lookup } from 'node:dns/promises';

/** Every address `hostname` resolves to; an empty list or a rejection is a failed lookup. */
export type Resolve = (hostname: string) => Promise<string[]>;

/** The system's resolver (getaddrinfo), all answers of both families, in its order. */
export const systemResolve: Resolve = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((answer) => answer.address);
