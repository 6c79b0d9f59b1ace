/**
 * Which addresses the link-preview fetch may connect to (docs/architecture.md, Link previews: the
 * guarded fetch). The ranges are ipaddr.js's named ranges, not a list of ours: an address is allowed
 * only when ipaddr.js calls it `unicast`, i.e. in none of loopback, private, link-local (the cloud
 * metadata address 169.254.169.254 among them), carrier-grade NAT, multicast, unspecified,
 * broadcast, reserved, unique-local and the rest. An IPv6 address that carries an IPv4 one is judged
 * by the IPv4 it carries (IPv4-mapped `::ffff:a.b.c.d` and the NAT64 prefix `64:ff9b::/96`, which a
 * DNS64 resolver answers for IPv4-only sites); the other transition forms (IPv4-compatible `::a.b.c.d`,
 * IPv4-translated, 6to4, Teredo, local-use NAT64) are refused whatever they carry: no site is reached
 * through them, and each can spell a private IPv4.
 */
import ipaddr from 'ipaddr.js';

/** The address to connect to, as a socket takes it, and its family. */
export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

/** `text` (an IPv4 or IPv6 address, without brackets) when it may be connected to; null otherwise. */
export function checkAddress(text: string): CheckedAddress | null {
  if (!ipaddr.isValid(text)) return null;
  const parsed = ipaddr.parse(text);
  if (parsed.kind() === 'ipv4') return checkIPv4(parsed as ipaddr.IPv4);
  const v6 = parsed as ipaddr.IPv6;
  if (v6.zoneId !== undefined) return null;
  const carried = carriedIPv4(v6);
  if (carried !== undefined) return carried === null ? null : checkIPv4(carried);
  return v6.range() === 'unicast' ? { address: v6.toNormalizedString(), family: 6 } : null;
}

function checkIPv4(address: ipaddr.IPv4): CheckedAddress | null {
  return address.range() === 'unicast' ? { address: address.toString(), family: 4 } : null;
}

const NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

/**
 * The IPv4 address an IPv6 one stands for (IPv4-mapped, NAT64), null for the forms refused outright
 * (IPv4-compatible), undefined for an IPv6 address that carries none.
 */
function carriedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null | undefined {
  if (address.isIPv4MappedAddress()) return address.toIPv4Address();
  if (address.match(NAT64)) return ipaddr.IPv4.parse(lastBits(address));
  // `::` and `::1` are in this range too; ipaddr.js names them unspecified and loopback.
  if (address.match(IPV4_COMPATIBLE)) return null;
  return undefined;
}

function lastBits(address: ipaddr.IPv6): string {
  const [high, low] = address.parts.slice(6) as [number, number];
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** The IP address a URL's hostname spells (`127.0.0.1`, `[::1]`), without brackets; null for a name. */
export function hostLiteral(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare)) ? bare : null;
}

/**
 * Names that always mean this machine or its network, refused before any lookup: `localhost` and
 * its subdomains (RFC 6761), with or without the root's trailing dot, and single-label names, which
 * a resolver completes with the machine's own search domains.
 */
export function isLocalName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === '' || name === 'localhost' || name.endsWith('.localhost') || !name.includes('.');
}
