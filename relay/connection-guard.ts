/**
 * The connections a client may hold open at a relay node, before and between its requests. An
 * HTTP server bounds a request once its first byte comes (headers and body within
 * `requestTimeout`) and an idle keep-alive connection after an answer (`keepAliveTimeout`), but
 * nothing bounds a connection that never sends a byte: with the relay's `connectionTimeout: 0`
 * (its streams and polls are long) 50 such connections were all still open after 100 s, each a
 * socket and a file descriptor of the node, at no cost to the client and before any rate limit.
 * Nor could anything bound how many a client holds: a GET (not rate limited, so that an office's
 * streams can all reconnect at once) bought 72 s of keep-alive per connection.
 *
 * So (src-main/core/http/connection-limits.ts, which Callbar's local listeners use too): a
 * connection must bring its first request's headers within `firstRequestMs`, else it is closed;
 * and a client (client-address.ts: an IPv4 address, an IPv6 /64) holds at most `perClient`
 * connections at once, a connection past that closed as it opens. A configured reverse proxy is
 * not counted (its connections carry many clients, whose own limits it keeps).
 */
import type { Server } from 'node:http';
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { limitConnections } from '../src-main/core/http/connection-limits';
import type { Logger } from '../src-main/core/log/logger';
import { clientAddress } from './client-address';

export interface ConnectionLimits {
  /** How long a new connection may take to bring its first request's headers. */
  firstRequestMs: number;
  /** Connections one client may hold open at once on this node. */
  perClient: number;
  /** The reverse proxies' addresses (IP or CIDR): never counted. */
  proxies: string[];
}

/** An IPv4 address written as IPv6 (`::ffff:127.0.0.2`, on a node listening on `::`) as IPv4. */
const plain = (address: string) =>
  address.toLowerCase().startsWith('::ffff:') && isIPv4(address.slice(7))
    ? address.slice(7)
    : address;

/** Whether `address` is one of `proxies` (IP or CIDR). */
function proxyMatcher(proxies: string[]): (address: string) => boolean {
  const list = new BlockList();
  for (const proxy of proxies) {
    const [address = '', prefix] = proxy.split('/');
    const type = isIPv6(address) ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(plain(address), type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return (address) => {
    const given = plain(address);
    return isIPv4(given) ? list.check(given, 'ipv4') : isIPv6(given) && list.check(given, 'ipv6');
  };
}

/** Applies `limits` to the connections `server` accepts from now on. */
export function guardConnections(server: Server, limits: ConnectionLimits, log: Logger): void {
  const isProxy = proxyMatcher(limits.proxies);
  limitConnections(
    server,
    {
      name: 'relay',
      firstRequestMs: limits.firstRequestMs,
      perClient: limits.perClient,
      whenFull: 'refuse-new',
      clientOf: (socket) => {
        const address = socket.remoteAddress ?? '';
        // clientAddress reads an IPv4-mapped address as the IPv4 one itself.
        return isProxy(address) ? undefined : clientAddress(address);
      },
    },
    log,
  );
}
