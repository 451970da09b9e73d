/**
 * HTTP to a relay as a client at a chosen loopback address (Linux routes all of 127.0.0.0/8 to
 * the loopback interface, so 127.0.0.3 and 127.0.0.4 are two clients to the relay), and the
 * reverse proxy docs/relay.md shows, as nginx does it: it appends the address of whoever connected
 * to X-Forwarded-For (`$proxy_add_x_forwarded_for`) and connects to the relay from its own address.
 */
import { Agent, createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Answer {
  status: number;
  text: string;
}

const agents = new Map<string, Agent>();
/** One keep-alive agent per client address (many requests, few connections). */
function agentFor(from: string): Agent {
  let agent = agents.get(from);
  if (!agent) {
    agent = new Agent({ keepAlive: true, maxSockets: 64, localAddress: from });
    agents.set(from, agent);
  }
  return agent;
}

/** `method` `url` from the address `from` (default 127.0.0.1) with a JSON `body`. */
export function send(
  method: string,
  url: string,
  options: { from?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const data = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method,
        agent: agentFor(options.from ?? '127.0.0.1'),
        headers: {
          ...(data === undefined ? {} : { 'content-type': 'application/json' }),
          ...options.headers,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(data);
  });
}

export function closeClients(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

/** A reverse proxy in front of `target`, connecting from `from` (nginx's X-Forwarded-For rule). */
export async function forwardingProxy(
  target: string,
  from: string,
): Promise<{ origin: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: 64, localAddress: from });
  const server = createServer((incoming, outgoingResponse) => {
    const headers: IncomingHttpHeaders = { ...incoming.headers };
    const given = incoming.headers['x-forwarded-for'];
    const client = incoming.socket.remoteAddress ?? '';
    // $proxy_add_x_forwarded_for: what the client sent, then the client's own address.
    headers['x-forwarded-for'] = given ? `${String(given)}, ${client}` : client;
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: incoming.url,
        method: incoming.method,
        headers,
        agent,
      },
      (answer) => {
        outgoingResponse.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoingResponse);
      },
    );
    forwarded.on('error', () => outgoingResponse.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
