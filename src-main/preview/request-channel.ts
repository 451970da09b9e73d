/**
 * The preview's persistent channel for the window's requests: one WebSocket per page instead of
 * one HTTP request per call (a keystroke's search paid a fetch, the network service's hop and an
 * HTTP exchange each time). Electron's IPC is one message each way; so is this.
 *
 * The handshake is checked as the HTTP routes are, before any socket exists:
 * - the Host header names this server (DNS rebinding), the Origin is the preview page itself;
 * - the session token comes as a WebSocket subprotocol (`callbar-session.<token>`; a page cannot
 *   set a header on a WebSocket), beside `callbar.v1`, the one the server answers with.
 * A refused handshake gets a plain HTTP answer and a closed connection.
 *
 * Bounds: a message of at most 1 MiB (the HTTP body limit), at most 16 requests under way on a
 * socket, at most 8 sockets at once. A request is a JSON text `{"id": n, "channel": "…", "body":
 * …}`; its answer `{"id": n, "result": …}` is the router's result envelope. Anything else closes
 * the socket (1008 policy violation, 1009 too big) with a sentence saying why.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { secretsEqual } from '../core/secret-compare';
import type { CallbarCore } from '../core/callbar-core';
import type { Logger } from '../core/log/logger';

export const CHANNEL_PATH = '/__callbar/channel';
/** The subprotocol the server answers with. */
export const CHANNEL_PROTOCOL = 'callbar.v1';
/** The prefix of the subprotocol that carries the session token. */
export const SESSION_PROTOCOL_PREFIX = 'callbar-session.';
export const CHANNEL_LIMITS = { maxMessageBytes: 1024 * 1024, maxInFlight: 16, maxSockets: 8 };

export interface RequestChannelOptions {
  core: CallbarCore | Promise<CallbarCore>;
  log: Logger;
  /** The Host headers this server answers to (`127.0.0.1:PORT`, `localhost:PORT`). */
  allowedHosts: () => readonly string[];
  /** The session token in force now (it is replaced when the start address is opened twice). */
  token: () => string;
  /** Told of each upgrade request that opens a channel (the page's session token checked). */
  opened?: (request: IncomingMessage) => void;
}

export interface RequestChannel {
  /** The HTTP server's `upgrade` handler. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes every open channel (the session token was replaced: nobody keeps a session). */
  endSessions(): void;
  close(): void;
}

/**
 * A plain HTTP answer, then the connection closed once it is written: ended only, the socket
 * stayed open for as long as the client neither read nor closed it (the HTTP server keeps its
 * sockets half-open), 20 of 20 refused handshakes still held after 15 s.
 */
function refuse(socket: Duplex, status: number, reason: string, sentence: string): void {
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(sentence)}\r\nConnection: close\r\n\r\n${sentence}`,
    () => socket.destroy(),
  );
}

/** The offered subprotocols (`Sec-WebSocket-Protocol`, comma-separated). */
function offeredProtocols(request: IncomingMessage): string[] {
  return (request.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((protocol) => protocol.trim())
    .filter(Boolean);
}

interface ChannelRequest {
  id: number;
  channel: string;
  body: unknown;
}

/** A request as sent, or undefined for anything else. */
function readRequest(text: string): ChannelRequest | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { id, channel, body } = parsed as Record<string, unknown>;
  if (!Number.isSafeInteger(id) || typeof channel !== 'string' || channel.length > 100) {
    return undefined;
  }
  return { id: id as number, channel, body: body ?? {} };
}

export function requestChannel(options: RequestChannelOptions): RequestChannel {
  const server = new WebSocketServer({
    noServer: true,
    maxPayload: CHANNEL_LIMITS.maxMessageBytes,
    // The answer's subprotocol: ours, never the one carrying the token.
    handleProtocols: (protocols) => (protocols.has(CHANNEL_PROTOCOL) ? CHANNEL_PROTOCOL : false),
  });

  const serve = (socket: WebSocket) => {
    let inFlight = 0;
    socket.on('message', (data, isBinary) => {
      const request =
        isBinary || !Buffer.isBuffer(data) ? undefined : readRequest(data.toString('utf8'));
      if (!request) {
        socket.close(1008, 'A request is JSON: {"id": n, "channel": "…", "body": …}.');
        return;
      }
      if (inFlight >= CHANNEL_LIMITS.maxInFlight) {
        socket.close(1008, `At most ${CHANNEL_LIMITS.maxInFlight} requests at once.`);
        return;
      }
      inFlight += 1;
      void (async () => {
        try {
          const result = await (await options.core).router.invoke(request.channel, request.body);
          if (socket.readyState === socket.OPEN) {
            socket.send(JSON.stringify({ id: request.id, result }));
          }
        } catch (error: unknown) {
          options.log.error('preview channel request failed', { channel: request.channel, error });
          socket.close(1011, 'Internal error.');
        } finally {
          inFlight -= 1;
        }
      })();
    });
    // A message over the limit: ws closes with 1009 itself.
    socket.on('error', () => undefined);
  };

  return {
    upgrade(request, socket, head) {
      const host = request.headers.host ?? '';
      const url = new URL(request.url ?? '/', 'http://preview.invalid');
      if (!options.allowedHosts().includes(host)) {
        return refuse(
          socket,
          421,
          'Misdirected Request',
          'This server answers only to its own address.',
        );
      }
      if (url.pathname !== CHANNEL_PATH) return refuse(socket, 404, 'Not Found', 'Not found.');
      if (
        !options.allowedHosts().some((allowed) => request.headers.origin === `http://${allowed}`)
      ) {
        return refuse(socket, 403, 'Forbidden', 'Requests must come from the preview page itself.');
      }
      const offered = offeredProtocols(request);
      const session = offered.find((protocol) => protocol.startsWith(SESSION_PROTOCOL_PREFIX));
      if (
        !session ||
        !secretsEqual(session.slice(SESSION_PROTOCOL_PREFIX.length), options.token())
      ) {
        return refuse(
          socket,
          401,
          'Unauthorized',
          'Open the address printed by `npm run demo`: it carries the session token.',
        );
      }
      if (!offered.includes(CHANNEL_PROTOCOL)) {
        return refuse(socket, 400, 'Bad Request', `Ask for the ${CHANNEL_PROTOCOL} subprotocol.`);
      }
      if (server.clients.size >= CHANNEL_LIMITS.maxSockets) {
        return refuse(socket, 429, 'Too Many Requests', 'Too many open channels.');
      }
      options.opened?.(request);
      server.handleUpgrade(request, socket, head, serve);
    },
    endSessions() {
      for (const client of server.clients) client.terminate();
    },
    close() {
      for (const client of server.clients) client.terminate();
      server.close();
    },
  };
}
