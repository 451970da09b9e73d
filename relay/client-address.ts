/**
 * The client a request comes from, as the relay's per-client bounds count it (the token bucket,
 * the activation waits a client may keep and hold, the connections it may hold open): an IPv4
 * address, or an IPv6 address's /64. Every IPv6 subscriber line, home or office, is given a /64
 * (RFC 6177), and any host on it may use any of its 2^64 addresses: counted by the whole address,
 * one machine was as many clients as it liked (100 registrations from one /64 kept 100 waits where
 * the per-address cap is 20, and the rate limit refused none). An IPv4 address written as IPv6
 * (`::ffff:203.0.113.9`, what a node listening on `::` sees) is that IPv4 address.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** The client `ip` counts as: itself (IPv4), or its /64 (`2001:db8:7:9::/64`). */
export function clientAddress(ip: string): string {
  if (isIPv4(ip)) return ip;
  const address = ip.split('%')[0] ?? ip;
  if (!isIPv6(address)) return ip;
  const groups = ipv6Groups(address);
  // ::ffff:a.b.c.d (IPv4-mapped): the IPv4 address it stands for.
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail read). */
function ipv6Groups(address: string): number[] {
  const [head = '', tail] = address.split('::');
  const part = (text: string | undefined): number[] =>
    !text
      ? []
      : text.split(':').flatMap((piece) => {
          if (!piece.includes('.')) return [parseInt(piece, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = piece.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const first = part(head);
  const last = part(tail);
  const zeros = tail === undefined ? [] : new Array<number>(8 - first.length - last.length).fill(0);
  return [...first, ...zeros, ...last];
}
