/**
 * The relay link over a week: the relay goes away and comes back many times (a node restarted,
 * the laptop's network gone and back), and a connection may die without a word (the laptop
 * slept; a proxy or NAT dropped it). Each time the stream is opened again and the events queued
 * meanwhile arrive; nothing piles up per reconnection (no listener left on the stream's signal,
 * each holding its connection's reader); and a connection that brings nothing,
 * not even the relay's keep-alive, is given up and opened again instead of waited on forever.
 * The relay is a real node (embedded store) stopped and started again on the same port; the
 * silent connection is a TCP proxy in front of it that stops passing bytes on the connections it
 * has, as a dead network path does.
 */
import { getEventListeners } from 'node:events';
import { createServer, connect as tcpConnect, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, expect, it } from 'vitest';
import { memoryStore } from '../../../relay/memory-store';
import { startRelay, type RunningRelay } from '../../../relay/relay-server';
import { memoryStateFile } from '../../../src-main/core/config/state-file';
import { silentLogger } from '../../../src-main/core/log/logger';
import { RelayLink, type RelayCursor } from '../../../src-main/core/relay/relay-link';
import { freePort } from '../../support/free-port';
import { addTestDevice } from '../../support/relay-device';
import { until } from '../../support/until';

const store = memoryStore();
let node: RunningRelay | undefined;
let proxy: Server | undefined;
const start = async (port: number, keepAliveMs = 60_000) =>
  (node = await startRelay({
    port,
    store,
    log: silentLogger,
    webhookSecret: 'relay-week-webhook-secret-0123456789abcdef',
    keepAliveMs,
  }));

afterEach(async () => {
  await node?.close();
  node = undefined;
  proxy?.close();
  proxy = undefined;
});
afterAll(() => store.close());

const device = (id: string) => addTestDevice(store, id);

const event = (id: string) => JSON.stringify({ type: 'event', event: { id } });

it('a relay restarted thirty times: every event arrives, and no listener piles up', async () => {
  const port = await freePort();
  await start(port);
  /** The abort listeners on the stream's signal at each pause between attempts. */
  const listeners: number[] = [];
  const link = new RelayLink({
    urls: [`http://127.0.0.1:${port}`],
    log: silentLogger,
    cursor: memoryStateFile<RelayCursor>(),
    pause: async (_ms, signal) => {
      listeners.push(getEventListeners(signal, 'abort').length);
      await new Promise((resolve) => setTimeout(resolve, 10));
    },
  });
  const received: string[] = [];
  const stream = link.connect(
    await device('device-701'),
    (message) => {
      if (message.type === 'event') received.push(message.event.id);
      return Promise.resolve();
    },
    () => undefined,
  );
  await stream.ready;
  const restarts = 30;
  for (let restart = 0; restart < restarts; restart++) {
    await node!.close();
    // Gone for a moment: the link fails to connect at least once (a pause) before it is back.
    await new Promise((resolve) => setTimeout(resolve, 30));
    await start(port);
    await store.append('device-701', event(`leg-${restart}`));
    await until(`the event after restart ${restart}`, () =>
      received.includes(`leg-${restart}`) ? true : undefined,
    );
  }
  stream.close();
  expect(await stream.ended).toBe('closed');
  // Every event once, in order.
  expect(received).toEqual(Array.from({ length: restarts }, (_, at) => `leg-${at}`));
  // Paused between attempts after each restart; what listens to the stream's signal then does
  // not grow with the reconnections (undici raises fetch's signals' warning limit to 1,500, so
  // Node's MaxListenersExceededWarning would come only after days of them).
  expect(listeners.length).toBeGreaterThanOrEqual(restarts);
  expect(Math.max(...listeners)).toBeLessThanOrEqual(1);
}, 60_000);

it('a connection gone silent (no keep-alive any more) is opened again, and what was queued arrives', async () => {
  const relayPort = await freePort();
  // The relay's keep-alive every 100 ms; the link gives a silent connection 600 ms.
  await start(relayPort, 100);
  const sockets: Socket[] = [];
  let frozen = false;
  proxy = createServer((client) => {
    const upstream = tcpConnect(relayPort, '127.0.0.1');
    sockets.push(client, upstream);
    // A frozen path passes nothing on and closes nothing: the bytes just stop.
    client.on('data', (chunk) => void (frozen || upstream.write(chunk)));
    upstream.on('data', (chunk) => void (frozen || client.write(chunk)));
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => proxy!.listen(0, '127.0.0.1', resolve));
  const proxyPort = (proxy.address() as { port: number }).port;
  const link = new RelayLink({
    urls: [`http://127.0.0.1:${proxyPort}`],
    log: silentLogger,
    cursor: memoryStateFile<RelayCursor>(),
    maxBackoffMs: 50,
    idleTimeoutMs: 600,
  });
  const received: string[] = [];
  const stream = link.connect(
    await device('device-702'),
    (message) => {
      if (message.type === 'event') received.push(message.event.id);
      return Promise.resolve();
    },
    () => undefined,
  );
  await stream.ready;
  await store.append('device-702', event('leg-before'));
  await until('the event before the silence', () =>
    received.includes('leg-before') ? true : undefined,
  );
  // The path dies without a word; new connections (after the "wake-up") go through again.
  const dead = sockets.length;
  frozen = true;
  await store.append('device-702', event('leg-while-silent'));
  await new Promise((resolve) => setTimeout(resolve, 50));
  frozen = false;
  for (const socket of sockets.slice(0, dead)) {
    socket.removeAllListeners('data');
  }
  await until('the event queued while the connection was silent', () =>
    received.includes('leg-while-silent') ? true : undefined,
  );
  expect(received).toEqual(['leg-before', 'leg-while-silent']);
  stream.close();
  expect(await stream.ended).toBe('closed');
  for (const socket of sockets) socket.destroy();
}, 60_000);
