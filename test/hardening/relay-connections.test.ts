/**
 * Connections an internet client holds open at a relay node (`npm run relay`, the embedded store,
 * a real process), before any request and between requests: the resource no rate limit sees.
 *
 * On the code before this round nothing bounded how many a client held: all 20 idle connections
 * stayed open (Node's own check, every 30 s, closed them in some runs and not in others: 50 of 50
 * were still open after 100 s in one, the node's `connectionTimeout` being 0), and a GET (not rate
 * limited) bought each connection 72 s of keep-alive, so one client could hold as many of the
 * node's sockets and file descriptors as it liked.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '../support/free-port';
import { relayProcess, type RelayProcess } from '../support/relay-process';
import { recordFigure } from '../support/hardening/figures';
import { until } from '../support/until';

const SECRET = 'relay-connections-webhook-secret-0123456';
const PER_CLIENT = 8;
const PROXY = '127.0.0.2';
const ATTACKER = '127.0.0.3';
const OTHER = '127.0.0.4';

let node: RelayProcess;
let port: number;
const sockets: Socket[] = [];

beforeAll(async () => {
  port = await freePort();
  node = relayProcess([], {
    ...process.env,
    RELAY_PORT: String(port),
    RELAY_WEBHOOK_SECRET: SECRET,
    RELAY_TRUST_PROXY: PROXY,
    RELAY_CONNECTIONS_PER_ADDRESS: String(PER_CLIENT),
  });
  await node.listening;
});
afterAll(() => {
  for (const socket of sockets) socket.destroy();
  if (node?.child.exitCode === null) node.child.kill('SIGKILL');
});

/** A TCP connection to the node from `from`, with whether it was closed and what it read. */
function open(from: string) {
  const socket = connect({ port, host: '127.0.0.1', localAddress: from });
  sockets.push(socket);
  const state = { socket, closed: false, text: '' };
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (state.text += chunk));
  socket.on('error', () => undefined);
  socket.on('close', () => (state.closed = true));
  return new Promise<typeof state>((resolve) => {
    socket.once('connect', () => resolve(state));
    socket.once('close', () => resolve(state));
  });
}

const healthz = 'GET /healthz HTTP/1.1\r\nHost: relay\r\n\r\n';
const answered = (state: { text: string }) => state.text.startsWith('HTTP/1.1 200');

it('a connection that sends nothing is closed, and a client holds only so many', async () => {
  const idle = await Promise.all(Array.from({ length: 20 }, () => open(ATTACKER)));
  // Past the client's share, closed as they open.
  await until('the connections past the share to be closed', () =>
    idle.filter((each) => each.closed).length >= 20 - PER_CLIENT ? true : undefined,
  );
  expect(idle.filter((each) => each.closed)).toHaveLength(20 - PER_CLIENT);
  // Another client is served meanwhile.
  const other = await open(OTHER);
  other.socket.write(healthz);
  await until('the other client’s answer', () => (answered(other) ? true : undefined));
  // The rest: closed once they had their time to send a request (10 s), never answered.
  await until('every idle connection to be closed', () =>
    idle.every((each) => each.closed) ? true : undefined,
  );
  expect(idle.filter((each) => each.text !== '')).toHaveLength(0);
  recordFigure(
    'relay: 20 connections from one address that send nothing',
    `${20 - PER_CLIENT} closed as they opened (RELAY_CONNECTIONS_PER_ADDRESS=${PER_CLIENT}), the other ${PER_CLIENT} after 10 s; another client served meanwhile (before: 20 held, closed only by Node's 30 s check when it caught them: 50 of 50 open after 100 s in one run)`,
  );
});

it('GETs (not rate limited) buy no more connections than the share; the proxy is not counted', async () => {
  // Each kept alive after its answer (72 s), as many as the client may hold, then more.
  const held = await Promise.all(Array.from({ length: PER_CLIENT + 4 }, () => open(ATTACKER)));
  for (const each of held) if (!each.closed) each.socket.write(healthz);
  await until('every connection answered or closed', () =>
    held.every((each) => answered(each) || each.closed) ? true : undefined,
  );
  const served = held.filter(answered).length;
  expect(served).toBe(PER_CLIENT);
  // The reverse proxy carries many clients: its connections are not counted.
  const proxied = await Promise.all(Array.from({ length: PER_CLIENT + 4 }, () => open(PROXY)));
  for (const each of proxied) each.socket.write(healthz);
  await until('every proxied connection answered', () =>
    proxied.every(answered) ? true : undefined,
  );
  recordFigure(
    `relay: ${PER_CLIENT + 4} kept-alive GET /healthz connections from one address`,
    `${served} served and held, ${PER_CLIENT + 4 - served} closed; the proxy's ${PER_CLIENT + 4} all served (before: all held, 72 s each, any number)`,
  );
});
