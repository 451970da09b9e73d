/**
 * Streams one device credential holds open at the relay (two nodes on a real `redis-server`). A
 * device's stream costs its node a socket, a wake-up watch, a timer and a Redis read every
 * keep-alive; each process of a profile (the app, a CLI command) has one, with the same
 * credential. On the code before this round nothing bounded how many one credential opened: 8 of 8
 * stayed open at one node (bounded only by the 256 connections per client address, so not at all
 * from many addresses). Now a device holds at most RELAY_STREAMS_PER_DEVICE on a node (3 here, 4
 * by default), the newest winning: the oldest is closed, and the newest stream, a desktop
 * reconnecting after a network change, gets the events. A stream its device stops reading holds
 * the node's memory only to the sockets' buffers: the rest waits in the (bounded) queue.
 */
import { createHash, randomBytes } from 'node:crypto';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { memoryStore } from '../../relay/memory-store';
import { startRelay, type RunningRelay } from '../../relay/relay-server';
import { QUEUE_MAX_LENGTH, type RelayStore } from '../../relay/relay-store';
import { silentLogger } from '../../src-main/core/log/logger';
import { DEVICE_PATHS } from '../../src-main/core/relay/relay-protocol';
import { recordFigure } from '../support/hardening/figures';
import { startRelayNodes, type RelayNodes } from '../support/relay-nodes';
import { until } from '../support/until';

const SECRET = 'relay-device-streams-webhook-secret-01234';
const PER_DEVICE = 3;
let relay: RelayNodes;
let stores: RelayStore[];
let nodes: RunningRelay[];
const requests: ClientRequest[] = [];

beforeAll(async () => {
  relay = await startRelayNodes(2, {
    webhookSecret: SECRET,
    streamsPerDevice: PER_DEVICE,
  });
  ({ stores, nodes } = relay);
});
afterAll(async () => {
  for (const request of requests) request.destroy();
  await relay?.close();
});

/** A device known to the relay, as an activation leaves it. */
async function device(extension: string) {
  const credential = randomBytes(32).toString('base64url');
  await stores[0]!.addDevice({
    device_id: `device-${extension}`,
    tenant_id: 'acme',
    user_extension: extension,
    credential_sha256: createHash('sha256').update(credential).digest('hex'),
    created_at: new Date().toISOString(),
  });
  return credential;
}

interface Stream {
  text: string;
  ended: boolean;
}

/** A device stream at `node`, read as raw text; open once its backlog is served. */
function stream(node: RunningRelay, credential: string) {
  const state: Stream = { text: '', ended: false };
  return new Promise<Stream>((resolve, reject) => {
    const request = httpRequest(`${node.origin}${DEVICE_PATHS.stream}`, {
      headers: { authorization: `Bearer ${credential}` },
    });
    requests.push(request);
    request.on('error', () => (state.ended = true));
    request.on('response', (response) => {
      if (response.statusCode !== 200) reject(new Error(`stream: ${response.statusCode}`));
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        state.text += chunk;
        if (state.text.includes('event: ready')) resolve(state);
      });
      response.on('end', () => (state.ended = true));
      response.on('close', () => (state.ended = true));
    });
    request.end();
  });
}

const ended = (states: { ended: boolean }[]) => states.filter((each) => each.ended).length;

it('one credential holds a few streams on a node, the newest winning', async () => {
  const credential = await device('401');
  const [a, b] = nodes as [RunningRelay, RunningRelay];
  const opened: Stream[] = [];
  // One after another: which is the newest is what the test is about.
  for (let i = 0; i < 8; i++) opened.push(await stream(a, credential));
  await until('the oldest streams to be closed', () =>
    ended(opened) >= 8 - PER_DEVICE ? true : undefined,
  );
  expect(opened.map((each) => each.ended)).toEqual([
    ...Array.from({ length: 8 - PER_DEVICE }, () => true),
    ...Array.from({ length: PER_DEVICE }, () => false),
  ]);
  // The newest (a desktop back after a network change) gets the events.
  const newest = opened.at(-1)!;
  const posted = await fetch(`${b.origin}/events/${SECRET}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: 'leg-after-reconnect', tenant_id: 'acme', user_extension: '401' }),
  });
  expect(posted.status).toBe(200);
  await until('the event on the newest stream', () =>
    newest.text.includes('leg-after-reconnect') ? true : undefined,
  );
  // Per node: the other node has its own share (nodes share no registry of streams).
  const elsewhere: Stream[] = [];
  for (let i = 0; i < PER_DEVICE; i++) elsewhere.push(await stream(b, credential));
  expect(ended(elsewhere)).toBe(0);
  expect(ended(opened)).toBe(8 - PER_DEVICE);
  recordFigure(
    'relay: 8 streams of one device credential at one node',
    `${8 - PER_DEVICE} oldest closed, the newest ${PER_DEVICE} open (RELAY_STREAMS_PER_DEVICE=${PER_DEVICE}), the newest got the next event; another node holds its own ${PER_DEVICE} (before: 8 of 8 open, any number)`,
  );
});

it('a device that stops reading its stream makes the node hold its queue’s bound, not every message', async () => {
  // The embedded store: each append is read by the stream before the next (all in one process).
  const store = memoryStore();
  const node = await startRelay({ port: 0, store, log: silentLogger, webhookSecret: SECRET });
  const credential = randomBytes(32).toString('base64url');
  await store.addDevice({
    device_id: 'device-stalled',
    tenant_id: 'acme',
    user_extension: '299',
    credential_sha256: createHash('sha256').update(credential).digest('hex'),
    created_at: new Date().toISOString(),
  });
  let text = '';
  const opened = new Promise<IncomingMessage>((resolve) => {
    const request = httpRequest(`${node.origin}${DEVICE_PATHS.stream}`, {
      headers: { authorization: `Bearer ${credential}` },
    });
    requests.push(request);
    request.on('response', (response) => {
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      resolve(response);
    });
    request.end();
  });
  try {
    const response = await opened;
    await until('the stream ready', () => (text.includes('event: ready') ? true : undefined));
    // The desktop stops reading; 2,000 messages of 16 KiB (31 MiB: more than the sockets'
    // buffers and the queue's 1,000 hold) are queued for it.
    response.pause();
    const total = 2 * QUEUE_MAX_LENGTH;
    const padding = 'x'.repeat(16 * 1024);
    for (let index = 0; index < total; index += 1) {
      await store.append(
        'device-stalled',
        JSON.stringify({ type: 'event', event: { id: `${index}`, padding } }),
      );
      await new Promise((resolve) => setImmediate(resolve));
    }
    response.resume();
    await until('the newest message', () =>
      text.includes(`"id":"${total - 1}"`) ? true : undefined,
    );
    const received = [...text.matchAll(/"id":"(\d+)"/g)].map((match) => Number(match[1]));
    const lost = [...text.matchAll(/event: gap\ndata: \{"lost":(\d+)\}/g)].reduce(
      (sum, match) => sum + Number(match[1]),
      0,
    );
    expect(received).toEqual([...received].sort((x, y) => x - y));
    expect(received.length + lost).toBe(total);
    // What the socket's buffers held and the queue kept; the rest was never in the node's memory.
    expect(received.length).toBeLessThan(total);
    recordFigure(
      'relay: a device stops reading its stream while 2,000 messages of 16 KiB are queued for it',
      `${received.length} delivered once it read again (the sockets' buffers and the queue), ${lost} said lost (event: gap); (before: all 2,000, what the sockets did not take held in the node's memory)`,
    );
  } finally {
    await node.close();
    await store.close();
  }
});
