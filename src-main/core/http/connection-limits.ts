/**
 * The connections a server holds before and between requests: what no request timeout sees. Node
 * bounds an HTTP request once its first byte comes (`headersTimeout`, `requestTimeout`) and an
 * idle keep-alive connection after an answer (`keepAliveTimeout`), but nothing bounds a
 * connection that never sends a byte, nor how many of them a client holds: each is a socket and a
 * file descriptor of the process, at no cost to the client. Used by the relay's nodes
 * (relay/connection-guard.ts) and by every local listener of Callbar: the loopback receiver, the
 * web preview, the link door.
 *
 * So: a connection must bring its first request within `firstRequestMs`, else it is closed; and a
 * client holds at most `perClient` connections at once. Past that share, `whenFull` decides:
 * - `refuse-new`: the new connection is closed as it opens (the relay: each internet client has a
 *   share of its own, so a client past it harms only itself);
 * - `close-oldest-waiting`: the client's oldest connection that has not yet brought a request is
 *   closed to make room, and the new one is refused only when every held connection is serving a
 *   request (bounded by the server's own timeouts). On loopback every client is 127.0.0.1, so the
 *   share is the whole server's: refused-new, whoever filled it first (another local user's silent
 *   connections) would lock the platform's calls out for as long as they kept it full.
 */
import type { ServerResponse } from 'node:http';
import type { Server, Socket } from 'node:net';
import type { Logger } from '../log/logger';
import { summarizedWarnings } from '../log/summarized-warnings';

/** How long a new connection may take to bring its first request, on every listener (10 s). */
export const FIRST_REQUEST_MS = 10_000;

/** What a server's options may set of its limits (tests: shorter waits, smaller shares). */
export type GivenLimits = Partial<Pick<ConnectionLimits, 'firstRequestMs' | 'perClient'>>;

export interface ConnectionLimits {
  /** How long a new connection may take to bring its first request (its headers, for HTTP). */
  firstRequestMs: number;
  /** Connections one client may hold open at once. */
  perClient: number;
  /** What happens to a connection past its client's share (above); `refuse-new` by default. */
  whenFull?: 'refuse-new' | 'close-oldest-waiting';
  /**
   * The client a connection counts toward (its address by default); undefined: not counted (a
   * reverse proxy carrying many clients).
   */
  clientOf?: (socket: Socket) => string | undefined;
  /** Who speaks in the log lines ("relay", "receiver"…). */
  name: string;
}

export interface LimitedConnections {
  /**
   * The connection brought its first request: from here on the server's own bounds hold it. An
   * HTTP server's `request` and `upgrade` say so by themselves; another server calls this.
   */
  served(socket: Socket): void;
  /** The connections held now (counted ones). */
  readonly held: number;
}

/** A client's connections: how many, and those still waiting for their first request (oldest first). */
interface Share {
  count: number;
  waiting: Set<Socket>;
}

/** Applies `limits` to the connections `server` accepts from now on. */
export function limitConnections(
  server: Server,
  limits: ConnectionLimits,
  log: Logger,
): LimitedConnections {
  const clientOf = limits.clientOf ?? ((socket: Socket) => socket.remoteAddress ?? '');
  const shares = new Map<string, Share>();
  const timers = new WeakMap<Socket, NodeJS.Timeout>();
  /** The share each counted connection is in, until it is let go. */
  const shareOf = new WeakMap<Socket, { client: string; share: Share }>();
  const refusals = summarizedWarnings(log, `${limits.name} closed more connections`);
  let held = 0;

  const served = (socket: Socket) => {
    clearTimeout(timers.get(socket));
    timers.delete(socket);
    shareOf.get(socket)?.share.waiting.delete(socket);
  };

  /** No longer counted (closed, or closed to make room). */
  const release = (socket: Socket) => {
    const counted = shareOf.get(socket);
    if (!counted) return;
    shareOf.delete(socket);
    const { client, share } = counted;
    share.waiting.delete(socket);
    share.count -= 1;
    held -= 1;
    if (share.count === 0) shares.delete(client);
  };

  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const timer = setTimeout(() => {
      refusals.warn(
        'no request',
        `${limits.name} closed a connection that sent no request in time`,
        { address },
      );
      socket.destroy();
    }, limits.firstRequestMs);
    timer.unref();
    timers.set(socket, timer);
    socket.once('close', () => {
      clearTimeout(timer);
      release(socket);
    });
    const client = clientOf(socket);
    if (client === undefined) return;
    const share = shares.get(client) ?? { count: 0, waiting: new Set<Socket>() };
    if (share.count >= limits.perClient) {
      const oldest: Socket | undefined =
        limits.whenFull === 'close-oldest-waiting'
          ? share.waiting.values().next().value
          : undefined;
      if (!oldest) {
        refusals.warn(
          'too many',
          `${limits.name} closed a connection: its client holds as many as allowed`,
          { address },
        );
        socket.destroy();
        return;
      }
      refusals.warn(
        'made room',
        `${limits.name} closed a client's oldest connection that sent no request, for a new one`,
        { address },
      );
      release(oldest);
      oldest.destroy();
    }
    shares.set(client, share);
    share.count += 1;
    share.waiting.add(socket);
    shareOf.set(socket, { client, share });
    held += 1;
  });
  /**
   * Answered, and kept alive for a next request: idle again, so it is the oldest waiting one's
   * turn to make room (newest last), as a connection that never asked. Before, a connection that
   * had asked once was never made to, and one asking `GET /done` every few seconds held its
   * place for good: a local program's 128 such connections closed every new one, the platform's
   * calls too.
   */
  const idle = (socket: Socket) => {
    const counted = shareOf.get(socket);
    if (counted && !socket.destroyed) counted.share.waiting.add(socket);
  };
  // An HTTP server: its first request's headers came (or an upgrade's, whose socket is then the
  // upgrade handler's to bound); once answered, the connection waits again.
  server.on('request', (request: { socket: Socket }, response: ServerResponse) => {
    served(request.socket);
    response.once('finish', () => idle(request.socket));
  });
  server.on('upgrade', (request: { socket: Socket }) => served(request.socket));

  return {
    served,
    get held() {
      return held;
    },
  };
}

/**
 * A loopback listener's limits (the receiver's, the web preview's): every client is 127.0.0.1, so
 * its share is the whole server's, and a full one closes the oldest connection still waiting for
 * its first request (`close-oldest-waiting`, above). `given` overrides the defaults.
 */
export function limitLoopbackConnections(
  server: Server,
  name: string,
  perClient: number,
  given: GivenLimits | undefined,
  log: Logger,
): LimitedConnections {
  return limitConnections(
    server,
    {
      name,
      firstRequestMs: given?.firstRequestMs ?? FIRST_REQUEST_MS,
      perClient: given?.perClient ?? perClient,
      whenFull: 'close-oldest-waiting',
    },
    log,
  );
}
