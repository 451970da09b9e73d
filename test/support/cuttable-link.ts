/**
 * A forwarding connection to a relay node that a test cuts (a network fault, nothing of the relay
 * replaced), and that notes what it was asked, with the credential each request carried.
 */
import {
  createServer,
  request,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A forwarding connection to the relay that the test cuts (refused, open ones broken). */
export interface Cuttable {
  origin: string;
  /** Whether requests are refused (their connection destroyed). */
  down: boolean;
  /** Requests refused while down, as `METHOD path`. */
  refused: string[];
  /**
   * Each request's `METHOD path`, its authorization header (the credential it carried) and, once
   * the relay answered, the answer's status.
   */
  heard: { what: string; authorization: string | undefined; status?: number }[];
  /** Awaited before a request to `METHOD path` is forwarded (a request held on the way). */
  before: ((what: string) => Promise<void> | undefined) | undefined;
  /** Called once a response to `METHOD path` was forwarded whole. */
  after: ((what: string) => void) | undefined;
  cut(): void;
  close(): Promise<void>;
}

type Heard = Cuttable['heard'][number];

export async function cuttable(target: string): Promise<Cuttable> {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  const link: Cuttable = {
    origin: '',
    down: false,
    refused: [],
    heard: [],
    after: undefined,
    before: undefined,
    cut() {
      link.down = true;
      for (const socket of sockets) socket.destroy();
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const forward = (incoming: IncomingMessage, answer: ServerResponse, heard: Heard) => {
    const { what } = heard;
    if (link.down) {
      link.refused.push(what);
      incoming.socket.destroy();
      return;
    }
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: incoming.url,
        method: incoming.method,
        headers: incoming.headers,
      },
      (response) => {
        heard.status = response.statusCode;
        answer.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(answer);
        answer.on('finish', () => link.after?.(what));
      },
    );
    forwarded.on('error', () => answer.destroy());
    incoming.pipe(forwarded);
  };
  const server: Server = createServer((incoming, answer) => {
    const heard: Heard = {
      what: `${incoming.method} ${incoming.url}`,
      authorization: incoming.headers.authorization,
    };
    link.heard.push(heard);
    incoming.pause();
    void Promise.resolve(link.before?.(heard.what)).then(() => forward(incoming, answer, heard));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  link.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return link;
}
